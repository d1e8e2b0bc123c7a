// A search tree (search-query.ts) as SQL over `messages m`: words, phrases, columns, prefixes and NEAR go to
// FTS5 MATCH, the rest to WHERE clauses on the columns and tables that hold them (DESIGN §11 "Search").
// Pure: folders and labels come already resolved to ids through `Names`.
//
// - The words of the top-level AND become one MATCH on the FTS table joined to messages (the fast path, and
//   the expression the snippet is cut by); a word group under an OR with an operator, or a negation with
//   no word beside it, is a `m.id IN (SELECT rowid … MATCH ?)` of its own.
// - Every word is an FTS5 string ("…", its quotes doubled), so nothing typed is ever read as FTS syntax:
//   `carol@example.org` is the phrase carol example org, and no query can be an FTS syntax error.
// - cc: has no FTS column (the "to" column holds To and Cc): it is to: in FTS, then checked against the Cc
//   addresses alone by `skimmer_cc_has` (search.ts), with the same folding of case and accents.
// - Stars are IMAP's \Flagged, kept per location in `imap_locations.flags_json`; mail imported from files
//   carries no star.
// - Unless the query names a place (in:…), mail in Trash and Spam is left out, as Gmail does; in:anywhere
//   takes it in.
import type { Place, SearchNode } from './search-query.ts';

/** The ids behind the names a query uses; each throws SearchQueryError for a name that is not there. */
export type Names = {
  place(place: Exclude<Place, 'anywhere'>): number[];
  folder(name: string): number[];
  label(name: string): number[];
  /** Trash and Spam: left out unless a query names a place. */
  hidden(): number[];
};

export type SqlQuery = {
  /** The FTS5 expression for `messages_fts MATCH ?`, or null when the query has no words at its top. */
  match: string | null;
  /**
   * Conditions on `messages_fts.rowid` (the search key: date, then id) implied by the dates at the query's
   * top, with `?` for each of `keyParams`: FTS5 then starts and stops its newest-first walk at those days
   * instead of reading the matches outside them. The WHERE keeps the exact condition.
   */
  keyRange: string[];
  keyParams: number[];
  /** A condition on `m` (messages), with `?` for each of `params`. */
  where: string;
  params: (string | number)[];
};

const columns = { subject: 'subject', from: 'from', to: 'to', body: 'body' } as const;

export function toSql(root: SearchNode, names: Names): SqlQuery {
  const items = root.kind === 'and' ? root.items : [root];
  const words: string[] = [];
  const notWords: string[] = [];
  const others: SearchNode[] = [];
  const keyRange: string[] = [];
  const keyParams: number[] = [];
  for (const item of items) {
    const expr = item.kind === 'not' ? fts(item.item) : fts(item);
    if (expr === null) others.push(item);
    else (item.kind === 'not' ? notWords : words).push(expr);
    // The key's date is in whole seconds: the bounds are widened to whole seconds, never narrowed.
    if (item.kind === 'date') {
      keyRange.push(
        item.bound === 'since'
          ? `messages_fts.rowid >= ((max(?, 0) / 1000) << 31)`
          : `messages_fts.rowid < ((max(?, 0) / 1000 + 1) << 31)`,
      );
      keyParams.push(item.at);
    }
  }
  // cc: has no FTS column of its own: at the top, its to: words (a superset) narrow the walk as words do,
  // and skimmer_cc_has keeps the Cc addresses alone.
  const ccAtTop = items.filter((i) => i.kind === 'text' && i.field === 'cc');
  for (const cc of ccAtTop) if (cc.kind === 'text') words.push(`to:${ftsString(cc.text, cc.prefix)}`);
  let match: string | null = null;
  if (words.length > 0) {
    match = words.map((w) => `(${w})`).join(' AND ');
    for (const w of notWords) match = `(${match}) NOT (${w})`;
  } else {
    // FTS5's NOT needs something before it: alone, a negated word is a condition of its own.
    others.unshift(...items.filter((i) => i.kind === 'not' && fts(i.item) !== null));
  }
  const params: (string | number)[] = [];
  const conditions = others.map((n) => {
    if (!ccAtTop.includes(n) || n.kind !== 'text') return sql(n, names, params);
    params.push(n.text, n.prefix ? 1 : 0);
    return 'skimmer_cc_has(m.cc_json, ?, ?)'; // its to: words are in the MATCH already
  });
  if (!namesPlace(root)) {
    const hidden = names.hidden();
    if (hidden.length > 0) {
      conditions.push('m.folder_id NOT IN (SELECT value FROM json_each(?))');
      params.push(JSON.stringify(hidden));
    }
  }
  return {
    match,
    where: conditions.length > 0 ? conditions.join(' AND ') : '1',
    params,
    keyRange,
    keyParams,
  };
}

/** An FTS5 string: the tokenizer splits what is inside; nothing in it is syntax. */
function ftsString(text: string, prefix: boolean): string {
  return `"${text.replace(/"/g, '""')}"${prefix ? ' *' : ''}`;
}

// The FTS5 expression for a tree of words alone; null when any part of it is not FTS (an operator, cc:, a
// negation with nothing to subtract it from).
function fts(n: SearchNode): string | null {
  switch (n.kind) {
    case 'text':
      if (n.field === 'cc') return null;
      return `${n.field ? `${columns[n.field]}:` : ''}${ftsString(n.text, n.prefix)}`;
    case 'near':
      return `NEAR(${n.phrases.map((p) => ftsString(p, false)).join(' ')}${n.distance === null ? '' : `, ${n.distance}`})`;
    case 'or': {
      const parts = n.items.map((i) => (i.kind === 'not' ? null : fts(i)));
      return parts.every((p) => p !== null) ? parts.map((p) => `(${p})`).join(' OR ') : null;
    }
    case 'and': {
      const positive: string[] = [];
      const negative: string[] = [];
      for (const i of n.items) {
        const expr = fts(i.kind === 'not' ? i.item : i);
        if (expr === null) return null;
        (i.kind === 'not' ? negative : positive).push(expr);
      }
      if (positive.length === 0) return null;
      let expr = positive.map((p) => `(${p})`).join(' AND ');
      for (const p of negative) expr = `(${expr}) NOT (${p})`;
      return expr;
    }
    default:
      return null;
  }
}

// The index's rowid is the message's search key (migration 0030). A subquery reads every match before the walk
// starts: skimmer_pace (search.ts) asks the walk's check every 32 of them, so a deadline stops it there too.
const inFts = `m.search_key IN (SELECT rowid FROM messages_fts
   WHERE messages_fts MATCH ? AND (CASE WHEN rowid & 31 THEN 1 ELSE skimmer_pace() END))`;
const inList = (column: string) => `${column} IN (SELECT value FROM json_each(?))`;

function sql(n: SearchNode, names: Names, params: (string | number)[]): string {
  const expr = fts(n);
  if (expr !== null) {
    params.push(expr);
    return inFts;
  }
  switch (n.kind) {
    case 'and':
    case 'or':
      return `(${n.items.map((i) => sql(i, names, params)).join(n.kind === 'and' ? ' AND ' : ' OR ')})`;
    case 'not':
      return `NOT ${sql(n.item, names, params)}`;
    case 'text':
      // Only cc: gets here (fts() takes every other word).
      params.push(`to:${ftsString(n.text, n.prefix)}`, n.text, n.prefix ? 1 : 0);
      return `(${inFts} AND skimmer_cc_has(m.cc_json, ?, ?))`;
    case 'near':
      return '0'; // not reached: fts() takes NEAR
    case 'is':
      // The star's one source (DESIGN §11): kept equal to the server's \Flagged by the sync.
      if (n.state === 'starred') return 'm.starred = 1';
      return n.state === 'unread' ? 'm.unread = 1' : 'm.unread = 0';
    case 'has':
      return 'm.has_attachments = 1';
    case 'date':
      params.push(n.at);
      // A message without a Date header is stored as 0: it is of no day, so never "before" one.
      return n.bound === 'since' ? 'm.date >= ?' : '(m.date > 0 AND m.date < ?)';
    case 'label':
      params.push(JSON.stringify(names.label(n.name)));
      return `EXISTS (SELECT 1 FROM message_labels ml WHERE ml.message_id = m.id AND ${inList('ml.label_id')})`;
    case 'place':
      if (n.place === 'anywhere') return '1';
      params.push(JSON.stringify(names.place(n.place)));
      return inList('m.folder_id');
    case 'folder': {
      // Where Skimmer shows the message, or any mailbox the server keeps it in (a Gmail label is a mailbox).
      const ids = JSON.stringify(names.folder(n.name));
      params.push(ids, ids);
      return `(${inList('m.folder_id')} OR EXISTS (SELECT 1 FROM imap_locations l
                WHERE l.message = m.id AND ${inList('l.folder_id')}))`;
    }
  }
}

function namesPlace(n: SearchNode): boolean {
  switch (n.kind) {
    case 'and':
    case 'or':
      return n.items.some(namesPlace);
    case 'not':
      return namesPlace(n.item);
    case 'place':
    case 'folder':
      return true;
    default:
      return false;
  }
}
