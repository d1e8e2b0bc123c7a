// The one-line form of a tool call in the transcript: the tool's name and its arguments, short. The full
// arguments are one click away (raw JSON); this line only has to say what the model asked for at a glance.
// Pure; tested in tool-call-summary.test.ts. SECURITY: both forms show every character that draws nothing as a
// visible mark (shared/reveal-hidden.ts): arguments are what will be sent or saved (issue 27).
import { revealHidden } from '../../../shared/reveal-hidden.ts';

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
  const shown = revealHidden(text, { oneLine: true }).text;
  return shown.length > max ? `${shown.slice(0, max - 1)}…` : shown;
}

// JSON.stringify never throws on what the bridge delivers (plain JSON), but `undefined` has no JSON form.
function compactJson(value: unknown): string {
  return JSON.stringify(value) ?? String(value);
}

// Arguments as the "Show arguments" view prints them: indented JSON, as text.
export function prettyArgs(args: unknown): string {
  return revealHidden(JSON.stringify(args, null, 2) ?? String(args)).text;
}
