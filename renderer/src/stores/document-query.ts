// What the main search box sends to `documents:search` beside the mail search (DESIGN §12). The box takes the
// mail search's Gmail operators (`is:unread`, `from:dana`, `before:2026-01-01`, … electron/mail/store/
// search-query.ts); documents have no sender, no unread state, no folder, so an operator there is a filter no
// document passes. Sent as it was, FTS5 read `is:unread` as a column it does not have and the documents
// search fell back to the phrase "is unread": nothing found, or a page that happens to say "is unread".
// So a query with an operator searches the mail only; one of plain words (phrases, OR, -word, prefix*) searches
// both. Pure; tested in document-query.test.ts.

// As the mail search's tokenizer reads a query: a run of text up to a space, a bracket, a brace or a quote is an
// operator when it is `name:value` with a name of letters and `_`, and not a URL (`https://…`).
const delimiter = /[\s()"{}]/;
const operator = /^[A-Za-z][A-Za-z_]*:(?!\/\/)/;

/** The query for the documents search, or null when it holds a mail operator and only the mail is searched. */
export function documentQuery(query: string): string | null {
  let i = 0;
  while (i < query.length) {
    const c = query[i] as string;
    if (c === '"') {
      // A quoted phrase is words, whatever it holds; unclosed, it runs to the end.
      const end = query.indexOf('"', i + 1);
      i = end === -1 ? query.length : end + 1;
      continue;
    }
    if (delimiter.test(c) || c === '-') {
      i++;
      continue;
    }
    let end = i;
    while (end < query.length && !delimiter.test(query[end] as string)) end++;
    const run = query.slice(i, end);
    if (operator.test(run)) return null;
    i = end;
    // NEAR(…) holds phrases, not operators.
    if (run === 'NEAR' && query[i] === '(') {
      const close = query.indexOf(')', i);
      i = close === -1 ? query.length : close + 1;
    }
  }
  return query;
}
