// Mail in the transcript starts collapsed to its first few lines: it is data the model read, shown so the user
// can check it, not the conversation itself. Pure; tested in untrusted-preview.test.ts.

const collapsedLines = 4;
// A single very long line would still fill the pane; the preview cuts it too.
const collapsedChars = 400;

export type Preview = { text: string; cut: boolean };

export function untrustedPreview(text: string, lines = collapsedLines, chars = collapsedChars): Preview {
  const all = text.split('\n');
  let shown = all.slice(0, lines).join('\n');
  let cut = all.length > lines;
  if (shown.length > chars) {
    shown = shown.slice(0, chars);
    cut = true;
  }
  return { text: cut ? `${shown.trimEnd()}…` : shown, cut };
}

// `message:12` → "message 12"; anything else as it came (it only names where the text was found).
export function sourceLabel(source: string): string {
  const match = /^message:(\d+)$/.exec(source);
  return match ? `message ${match[1]}` : source;
}
