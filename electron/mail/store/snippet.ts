// A message's preview in a list or a search hit: its own words, quoted lines left out, cut to one line's length.
// A module of its own so the search (search.ts) does not load the folder and thread reads (queries.ts).

/** How many characters a snippet keeps; a query reads twice that of a body to have enough once quotes are gone. */
export const snippetChars = 160;

// The snippet skips quoted lines so a reply's preview shows what is new in it.
export function snippetOf(body: string): string {
  const lines = body.split(/\r?\n/).filter((l) => !/^\s*>/.test(l));
  return lines.join(' ').replace(/\s+/g, ' ').trim().slice(0, snippetChars);
}
