// The words of a search to mark where they match (the open message, the results' snippets), read from the
// query as the mail search reads it (electron/mail/store/search-query.ts): plain words, "exact phrases",
// `prefix*`, and the values of subject: and body:, which are text too. Not marked: a negated word (-word,
// NOT word), the boolean words, and every other operator (from:, is:, label:, after:, …), which match no text
// of the body. Pure; tested in search-terms.test.ts.

export type SearchTerm = { text: string; prefix: boolean };

const booleans = new Set(['AND', 'OR', 'NOT', 'NEAR']);
const textOperators = new Set(['subject', 'body']);

export function searchTerms(query: string): SearchTerm[] {
  const terms: SearchTerm[] = [];
  const seen = new Set<string>();
  const add = (raw: string) => {
    const prefix = raw.endsWith('*');
    const text = raw.replace(/\*+$/, '').replace(/\s+/g, ' ').trim();
    const key = `${text.toLowerCase()}|${prefix}`;
    if (text === '' || seen.has(key)) return;
    seen.add(key);
    terms.push({ text, prefix });
  };
  // A phrase, or a run up to a space or a bracket; an operator is `name:` before either.
  const token = /(-?)(?:([A-Za-z][A-Za-z_]*):)?(?:"([^"]*)"?|([^\s()"]+))/g;
  let negateNext = false;
  for (const match of query.matchAll(token)) {
    const [, minus, operator, phrase, word] = match;
    if (word !== undefined && booleans.has(word)) {
      negateNext = word === 'NOT';
      continue;
    }
    const negated = minus === '-' || negateNext;
    negateNext = false;
    if (negated) continue;
    if (operator !== undefined && !textOperators.has(operator.toLowerCase())) continue;
    // A URL typed as a word (https://…) is text, not an operator.
    add(phrase ?? word ?? '');
  }
  return terms;
}
