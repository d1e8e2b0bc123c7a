// Search over stored mail (DESIGN §11 "Search"): the query (search-query.ts) as SQL (search-sql.ts) over
// FTS5 and the message tables. The search box, `mail:search` and `skimmer search` get one hit per thread,
// newest first: the thread's newest matching message, with a snippet of it (Gmail and Thunderbird list
// results so). Triage and judge scopes take every matching message (`prepareMessageSearch`).
import type Database from 'better-sqlite3';
import type { SearchHit } from '../../../shared/contract/index.ts';
import type { Db } from '../../db/open.ts';
import { placeFolders } from './folder-places.ts';
import { snippetOf } from './queries.ts';
import { type Place, parseSearchQuery, SearchQueryError } from './search-query.ts';
import { type Names, toSql } from './search-sql.ts';

export { SearchQueryError } from './search-query.ts';

type Compiled = { match: string | null; from: string; where: string; params: unknown[] };
type Statement = Database.Statement<unknown[], unknown>;

function prepareQueryRunner(db: Db, now: () => number) {
  // cc: in SQL (search-sql.ts): whether the Cc addresses hold the words in order, folded as FTS5 folds
  // them (unicode61 remove_diacritics 2: case and accents), the last word a prefix when asked.
  db.function('skimmer_cc_has', { deterministic: true }, (ccJson, text, prefix) => {
    const cc = JSON.parse(String(ccJson)) as { name: string; address: string }[];
    const hay = cc.flatMap((a) => words(`${a.name} ${a.address}`));
    const needle = words(String(text));
    if (needle.length === 0) return 0;
    for (let i = 0; i + needle.length <= hay.length; i++) {
      const fits = needle.every((w, k) =>
        prefix && k === needle.length - 1 ? hay[i + k]?.startsWith(w) : hay[i + k] === w,
      );
      if (fits) return 1;
    }
    return 0;
  });

  const folderNamed = db
    .prepare<[string]>('SELECT id FROM folders WHERE name = ? COLLATE NOCASE ORDER BY id')
    .pluck();
  const placeIds = db
    .prepare<[string, string, string, number]>(
      `SELECT f.id FROM folders f LEFT JOIN imap_folders i ON i.folder_id = f.id
        WHERE i.special_use IN (SELECT value FROM json_each(?))
           OR f.source IN (SELECT value FROM json_each(?))
           OR f.name COLLATE NOCASE IN (SELECT value FROM json_each(?))
           OR (? AND i.path = 'INBOX')
        ORDER BY f.id`,
    )
    .pluck();
  // Gmail writes a label with spaces and slashes as hyphens (label:project-x for "Project X").
  const labelNamed = db
    .prepare<[string, string]>(
      `SELECT id FROM labels
        WHERE name = ? OR replace(replace(name, ' ', '-'), '/', '-') = ? COLLATE NOCASE ORDER BY id`,
    )
    .pluck();

  const place = (p: Exclude<Place, 'anywhere'>) => {
    const { uses, sources, names } = placeFolders[p];
    const json = JSON.stringify;
    return placeIds.all(json(uses), json(sources), json(names), p === 'inbox' ? 1 : 0) as number[];
  };
  const names: Names = {
    place,
    folder(name) {
      const ids = folderNamed.all(name) as number[];
      if (ids.length === 0) throw new SearchQueryError('bad_value', `There is no folder named "${name}".`);
      return ids;
    },
    label(name) {
      const ids = labelNamed.all(name, name) as number[];
      if (ids.length === 0) throw new SearchQueryError('bad_value', `There is no label named "${name}".`);
      return ids;
    },
    hidden: () => [...place('trash'), ...place('spam')],
  };

  // The SQL of a query depends on its shape only; the shapes people type repeat, so statements are kept.
  const statements = new Map<string, Statement>();
  const statement = (sql: string): Statement => {
    let s = statements.get(sql);
    if (!s) {
      if (statements.size >= 100) statements.clear();
      s = db.prepare<unknown[], unknown>(sql);
      statements.set(sql, s);
    }
    return s;
  };

  return {
    /**
     * The query as `FROM … WHERE …` over `m` (messages) and, when it has words at its top, the FTS table, with
     * the parameters for them; null when it holds nothing to search for. Throws SearchQueryError.
     */
    compile(text: string): Compiled | null {
      const tree = parseSearchQuery(text, { now: now() });
      if (tree === null) return null;
      const q = toSql(tree, names);
      if (q.match === null) return { match: null, from: 'messages m', where: q.where, params: q.params };
      return {
        match: q.match,
        from: 'messages_fts JOIN messages m ON m.id = messages_fts.rowid',
        where: `messages_fts MATCH ? AND ${q.where}`,
        params: [q.match, ...q.params],
      };
    },
    all: <T>(sql: string, params: unknown[]): T[] => statement(sql).all(...params) as T[],
  };
}

const words = (text: string) =>
  text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .match(/[\p{L}\p{N}]+/gu) ?? [];

/** One hit per thread, newest first; throws SearchQueryError for a query Skimmer cannot read. */
export function prepareSearch(db: Db, now: () => number = Date.now) {
  const runner = prepareQueryRunner(db, now);
  // The newest matching message of each thread (ties by id), threads by that message's date; the snippet is
  // cut for those hits alone, in the same statement, by reading the FTS table again with the same MATCH (a
  // statement of its own per hit took four times the search on the 20,000 messages of bench/search.ts).
  const select = (q: Compiled) => `
    WITH hits AS MATERIALIZED (
      SELECT id, date FROM (
        SELECT m.id, m.date,
               row_number() OVER (PARTITION BY m.thread_id ORDER BY m.date DESC, m.id DESC) AS n
          FROM ${q.from} WHERE ${q.where})
       WHERE n = 1 ORDER BY date DESC, id DESC LIMIT ?),
    cut AS MATERIALIZED (${
      q.match === null
        ? 'SELECT id, date, NULL AS snippet FROM hits'
        : `SELECT hits.id, hits.date, snippet(messages_fts, 3, '', '', '…', 12) AS snippet
             FROM messages_fts JOIN hits ON hits.id = messages_fts.rowid WHERE messages_fts MATCH ?`
    })
    SELECT m.id, m.message_id, m.thread_id, m.subject, m.from_text, m.date,
           coalesce(cut.snippet, substr(m.body_text, 1, 2000)) AS snippet
      FROM cut JOIN messages m ON m.id = cut.id
     ORDER BY cut.date DESC, cut.id DESC`;

  return function search(text: string, limit: number): SearchHit[] {
    const q = runner.compile(text);
    if (q === null) return [];
    const params = [...q.params, limit, ...(q.match === null ? [] : [q.match])];
    return runner.all<HitRow>(select(q), params).map((r) => ({
      id: r.id,
      messageId: r.message_id,
      threadId: r.thread_id,
      subject: r.subject,
      from: r.from_text,
      date: r.date,
      snippet: q.match === null ? snippetOf(r.snippet) : r.snippet.replace(/\s+/g, ' ').trim(),
    }));
  };
}

/** Every matching message's id, newest first, up to `limit`; throws SearchQueryError. */
export function prepareMessageSearch(db: Db, now: () => number = Date.now) {
  const runner = prepareQueryRunner(db, now);
  return function messageIds(text: string, limit: number): number[] {
    const q = runner.compile(text);
    if (q === null) return [];
    const sql = `SELECT m.id FROM ${q.from} WHERE ${q.where} ORDER BY m.date DESC, m.id DESC LIMIT ?`;
    return runner.all<{ id: number }>(sql, [...q.params, limit]).map((r) => r.id);
  };
}

type HitRow = {
  id: number;
  message_id: string;
  thread_id: number;
  subject: string;
  from_text: string;
  date: number;
  /** Cut around the words, or the start of the body when the query has none at its top. */
  snippet: string;
};
