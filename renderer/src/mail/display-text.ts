// Mail-derived strings shown in Skimmer's own interface (subjects, names, addresses, attachment names,
// snippets). Direction controls in them can make `invoice<U+202E>fdp.exe` display as "invoiceexe.pdf", so
// they are removed: what is shown is the characters' real order. (Elements that show such strings also
// isolate them with `unicode-bidi: isolate`, so right-to-left text cannot reorder what sits around it.)
// Pure; tested in display-text.test.ts.

// Embeddings and overrides (U+202A–U+202E), isolates (U+2066–U+2069), and the LRM/RLM/ALM marks.
const directionControls = /[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]/g;

export function displayText(text: string): string {
  return text.replace(directionControls, '');
}

export function hasDirectionControls(text: string): boolean {
  return /[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]/.test(text);
}
