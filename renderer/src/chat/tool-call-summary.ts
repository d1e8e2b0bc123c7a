// The one-line form of a tool call in the transcript: the tool's name and its arguments, short. The full
// arguments are one click away (raw JSON); this line only has to say what the model asked for at a glance.
// Pure; tested in tool-call-summary.test.ts.

const maxArgsChars = 120;

// `{"query":"newsletter","limit":20}` → `query: "newsletter", limit: 20`; other shapes as compact JSON.
export function shortArgs(args: unknown, max = maxArgsChars): string {
  let text: string;
  if (typeof args === 'object' && args !== null && !Array.isArray(args)) {
    text = Object.entries(args)
      .map(([key, value]) => `${key}: ${compactJson(value)}`)
      .join(', ');
  } else {
    text = args === undefined ? '' : compactJson(args);
  }
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

// JSON.stringify never throws on what the bridge delivers (plain JSON), but `undefined` has no JSON form.
function compactJson(value: unknown): string {
  return JSON.stringify(value) ?? String(value);
}

// Arguments as the "Show arguments" view prints them: indented JSON, as text.
export function prettyArgs(args: unknown): string {
  return JSON.stringify(args, null, 2) ?? String(args);
}
