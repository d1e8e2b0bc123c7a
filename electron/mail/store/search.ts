// Search over stored mail (DESIGN §11 "Search"): the query (search-query.ts) as SQL (search-sql.ts) over
// FTS5 and the message tables. The search box, `mail:search` and `skimmer search` get one hit per thread,
// newest first: the thread's newest matching message, with a snippet of it (Gmail and Thunderbird list
// results so), or by relevance when asked. Triage and judge scopes take every matching message
// (`prepareMessageSearch`).
//
// A search can be stopped while it runs (red-team item 8): it asks its `ReadCheck` between the rows it reads and,
// through skimmer_pace, every 32 matches SQLite reads for it, so a deadline or a newer search ends it there with
// a SearchQueryError. What no check reaches is a step of SQLite's own (FTS5 expanding a prefix); the parser bounds
// those (search-query.ts) and the read thread stops one that still runs past its deadline (reads/read-thread.ts).
import type Database from 'better-sqlite3';
import type { SearchHit } from '../../../shared/contract/index.ts';
import type { Db } from '../../db/open.ts';
import { placeFolders } from './folder-places.ts';
import { type Place, parseSearchQuery, SearchQueryError } from './search-query.ts';
import { type Names, toSql } from './search-sql.ts';
import { snippetOf } from './snippet.ts';

export { SearchQueryError } from './search-query.ts';

/**
 * Asked as a search reads: throws (a SearchQueryError `too_slow` or `cancelled`) to end the read there. The read
 * thread's checks the read's deadline and whether a newer search replaced it (reads/read-worker.ts).
 */
export type ReadCheck = () => void;
export const noCheck: ReadCheck = () => {};

/** A check that stops a read `ms` after it is made. */
export function deadline(ms: number, clock: () => number = Date.now): ReadCheck {
  const at = clock() + ms;
  return () => {
    if (clock() >= at) throw searchTooSlow(ms);
  };
}

export function searchTooSlow(ms: number): SearchQueryError {
  const seconds = ms >= 1000 ? `${Math.round(ms / 100) / 10} s` : `${ms} ms`;
  return new SearchQueryError(
    'too_slow',
    `That search took longer than ${seconds} and was stopped. Add a word, or from:, after: or in:, to narrow it.`,
  );
}

export function searchReplaced(): SearchQueryError {
  return new SearchQueryError('cancelled', 'A newer search replaced this one.');
}

// The check of the walk running, for skimmer_pace: a search is one synchronous walk at a time on a thread, so one
// variable serves every database of the thread (as `shown` below).
let pace: ReadCheck = noCheck;

function paced<T>(check: ReadCheck, run: () => T): T {
  const before = pace;
  pace = check;
  try {
    check();
    return run();
  } finally {
    pace = before;
  }
}

// A condition that is always true and asks the walk's check for one row in 32 (by the low bits of the message
// id): calling into JavaScript for every match made a ranked search of a word in most of 100,000 messages a third
// to a half slower; one in 32 costs nothing measurable.
const paceOn = (id: string) => `(CASE WHEN ${id} & 31 THEN 1 ELSE skimmer_pace() END)`;

// The search index's rowid is the message's search key (migration 0030): its date, then its id in these bits.
const idBits = 2147483647;
// Matches a ranked walk joins to their messages at a time.
const rankBatch = 256;

type Compiled = {
  match: string | null;
  from: string;
  /** Every condition, the paced one among them, with `params`. */
  where: string;
  params: unknown[];
  /** The conditions on the search key (FTS5's rowid) alone, with `keyParams`. */
  keyRange: string[];
  keyParams: unknown[];
  /** The conditions on `m` alone, with `mParams`. */
  mWhere: string;
  mParams: unknown[];
};
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
  db.function('skimmer_pace', { deterministic: false }, () => {
    pace();
    return 1;
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
      const parts = { keyRange: q.keyRange, keyParams: q.keyParams, mWhere: q.where, mParams: q.params };
      if (q.match === null) {
        const where = `${paceOn('m.id')} AND ${q.where}`;
        return { match: null, from: 'messages m', where, params: q.params, ...parts };
      }
      return {
        match: q.match,
        from: `messages_fts JOIN messages m ON m.id = messages_fts.rowid & ${idBits}`,
        where: ['messages_fts MATCH ?', ...q.keyRange, paceOn('messages_fts.rowid'), q.where].join(' AND '),
        params: [q.match, ...q.keyParams, ...q.params],
        ...parts,
      };
    },
    all: <T>(sql: string, params: unknown[]): T[] => statement(sql).all(...params) as T[],
    iterate: <T>(sql: string, params: unknown[]): IterableIterator<T> =>
      statement(sql).iterate(...params) as IterableIterator<T>,
  };
}

const words = (text: string) =>
  text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .match(/[\p{L}\p{N}]+/gu) ?? [];

export type SearchOrder = 'newest' | 'relevance';

// The threads a page already shows, for `skimmer_first_of_thread`: a search is one synchronous walk over one
// statement, so one set serves every database of the thread and is emptied before each walk.
const shown = new Set<number>();

/**
 * One hit per thread; throws SearchQueryError for a query Skimmer cannot read. `newest` (the default): the
 * threads by their newest matching message, read newest first from the index and stopped as soon as the page
 * is full, so a word in most of the mail costs no more than a rare one. `relevance`: by FTS5's bm25 rank,
 * which reads every match.
 */
export function prepareSearch(db: Db, now: () => number = Date.now) {
  const runner = prepareQueryRunner(db, now);
  // 1 the first time a walk meets a thread: the rows it keeps, and the only ones the snippet is cut for.
  db.function('skimmer_first_of_thread', { deterministic: false }, (threadId) => {
    const id = Number(threadId);
    if (shown.has(id)) return 0;
    shown.add(id);
    return 1;
  });

  // Newest first, with words: FTS5 gives the matches in search-key order (date, then id: migration 0030),
  // descending, and the CROSS JOIN keeps it the outer loop, so the order is the index's own and no sort waits
  // for every match (were there a sort, SQLite would compute the columns, and call the function, before it).
  // The walk stops after `limit` threads; the snippet is cut for the rows kept alone.
  const newestWithWords = (q: Compiled) =>
    `SELECT m.id, m.message_id, m.thread_id, m.subject, m.from_text, m.date,
            CASE WHEN skimmer_first_of_thread(m.thread_id)
                 THEN snippet(messages_fts, 3, '', '', '…', 12) END AS snippet
       FROM messages_fts CROSS JOIN messages m ON m.id = messages_fts.rowid & ${idBits}
      WHERE ${q.where}
      ORDER BY messages_fts.rowid DESC`;
  // Without words: the date indexes (migration 0030) give the order; the first message met of each thread is
  // kept until the page is full, then the page's rows are read.
  const newestIds = (q: Compiled) =>
    `SELECT m.id, m.thread_id FROM messages m WHERE ${q.where} ORDER BY m.date DESC, m.id DESC`;
  const rowsOf = db.prepare<[string], HitRow>(
    `SELECT id, message_id, thread_id, subject, from_text, date, substr(body_text, 1, 2000) AS snippet
       FROM messages WHERE id IN (SELECT value FROM json_each(?))`,
  );

  // By rank: bm25 for every match (the price of this order), sorted best first, and the walk reads each row's
  // thread as it goes, so it joins the messages of the rows it reads alone (a batch at a time) and stops once the
  // page holds `limit` threads and the rank has moved past the last one's (a tie may still be a better message of
  // a thread, by date). Sorting every match by thread in SQL, as this did before, took three times as long for a
  // word in most of the mail (bench/README.md, "Search"). SQLite sorts here, not FTS5 (`ORDER BY rank`): FTS5
  // ranks every match inside its first step, where no check can stop it; here skimmer_pace is asked as the matches
  // are read for the sort, and the sort by SQLite was no slower than FTS5's (bench/search.ts).
  const byRank = (q: Compiled) =>
    `SELECT messages_fts.rowid >> 31 AS seconds, messages_fts.rowid & ${idBits} AS id,
            bm25(messages_fts) AS score
       FROM messages_fts
      WHERE ${['messages_fts MATCH ?', ...q.keyRange, paceOn('messages_fts.rowid')].join(' AND ')}
      ORDER BY score`;
  const rankedMessages = (q: Compiled) =>
    `SELECT m.id, m.thread_id, m.date FROM messages m
      WHERE m.id IN (SELECT value FROM json_each(?)) AND ${q.mWhere}`;
  // The page's rows with their snippets, in the order given: one more pass over the matches, the snippet cut for
  // the page's rows alone (a lookup by key would expand a prefix like conf* again for every row: 50 of them took
  // 160 ms at 100,000 messages, the pass 9 ms). A key is past what a JavaScript number holds exactly, so it is
  // put together here from its seconds and id.
  const rankedRows = db.prepare<[string, string], HitRow>(
    `WITH page AS MATERIALIZED (
       SELECT key AS n, (value ->> 0) << 31 | (value ->> 1) AS key FROM json_each(?)),
     cut AS MATERIALIZED (
       SELECT messages_fts.rowid AS key, snippet(messages_fts, 3, '', '', '…', 12) AS snippet
         FROM messages_fts
        WHERE messages_fts MATCH ? AND +messages_fts.rowid IN (SELECT key FROM page)
          AND ${paceOn('messages_fts.rowid')})
     SELECT m.id, m.message_id, m.thread_id, m.subject, m.from_text, m.date, cut.snippet
       FROM page JOIN cut ON cut.key = page.key JOIN messages m ON m.id = page.key & ${idBits}
      ORDER BY page.n`,
  );

  // Each thread's best message (rank, then the newest, then the highest id), threads by that message's rank and
  // then its id, the highest first: the order the window over every match gave.
  type Match = { id: number; seconds: number; score: number };
  type Ranked = Match & { thread_id: number; date: number };
  const bestByRank = (q: Compiled, limit: number, check: ReadCheck): Ranked[] => {
    const read: Ranked[] = [];
    const threads = new Set<number>();
    let last: number | null = null;
    let batch: Match[] = [];
    // The batch's rows that are messages the query takes, in rank order; false once the rank moved past the page.
    const take = (): boolean => {
      const ids = JSON.stringify(batch.map((b) => b.id));
      const rows = runner.all<{ id: number; thread_id: number; date: number }>(rankedMessages(q), [
        ids,
        ...q.mParams,
      ]);
      const byId = new Map(rows.map((r) => [r.id, r]));
      for (const b of batch) {
        if (last !== null && b.score > last) return false;
        const m = byId.get(b.id);
        if (!m) continue;
        read.push({ ...b, thread_id: m.thread_id, date: m.date });
        threads.add(m.thread_id);
        if (last === null && threads.size >= limit) last = b.score;
      }
      batch = [];
      return true;
    };
    let more = true;
    for (const r of runner.iterate<Match>(byRank(q), [q.match, ...q.keyParams])) {
      check();
      batch.push(r);
      if (batch.length >= rankBatch && !take()) {
        more = false;
        break;
      }
    }
    if (more && batch.length > 0) take();
    read.sort((a, b) => a.score - b.score || b.date - a.date || b.id - a.id);
    const best = new Map<number, Ranked>();
    for (const r of read) if (!best.has(r.thread_id)) best.set(r.thread_id, r);
    return [...best.values()].sort((a, b) => a.score - b.score || b.id - a.id).slice(0, limit);
  };

  const toHit = (r: HitRow, words: boolean): SearchHit => ({
    id: r.id,
    messageId: r.message_id,
    threadId: r.thread_id,
    subject: r.subject,
    from: r.from_text,
    date: r.date,
    snippet: words ? (r.snippet as string).replace(/\s+/g, ' ').trim() : snippetOf(r.snippet as string),
  });

  const search = (text: string, limit: number, order: SearchOrder, check: ReadCheck): SearchHit[] => {
    const q = runner.compile(text);
    if (q === null) return [];
    // A query of operators alone has nothing to rank: it is listed newest first either way.
    if (order === 'relevance' && q.match !== null) {
      const page = bestByRank(q, limit, check).map((r) => [r.seconds, r.id]);
      return rankedRows.all(JSON.stringify(page), q.match).map((r) => toHit(r, true));
    }
    let hits: SearchHit[];
    if (q.match === null) {
      const threads = new Set<number>();
      const ids: number[] = [];
      for (const r of runner.iterate<{ id: number; thread_id: number }>(newestIds(q), q.params)) {
        check();
        if (threads.has(r.thread_id)) continue;
        threads.add(r.thread_id);
        ids.push(r.id);
        if (ids.length >= limit) break;
      }
      hits = rowsOf.all(JSON.stringify(ids)).map((r) => toHit(r, false));
    } else {
      hits = [];
      shown.clear();
      for (const r of runner.iterate<HitRow>(newestWithWords(q), q.params)) {
        check();
        if (r.snippet === null) continue; // a thread the page already shows
        hits.push(toHit(r, true));
        if (hits.length >= limit) break;
      }
      shown.clear();
    }
    // The key orders by whole seconds; within one second the page is ordered as the thread list is.
    return hits.sort((a, b) => b.date - a.date || b.id - a.id);
  };

  /** `check` is asked as the search reads (see ReadCheck); a search that is not to be stopped leaves it out. */
  return (text: string, limit: number, order: SearchOrder = 'newest', check: ReadCheck = noCheck) =>
    paced(check, () => search(text, limit, order, check));
}

/** Every matching message's id, newest first, up to `limit`; throws SearchQueryError (`check`: see ReadCheck). */
export function prepareMessageSearch(db: Db, now: () => number = Date.now) {
  const runner = prepareQueryRunner(db, now);
  return function messageIds(text: string, limit: number, check: ReadCheck = noCheck): number[] {
    return paced(check, () => {
      const q = runner.compile(text);
      if (q === null) return [];
      const sql = `SELECT m.id FROM ${q.from} WHERE ${q.where} ORDER BY m.date DESC, m.id DESC LIMIT ?`;
      return runner.all<{ id: number }>(sql, [...q.params, limit]).map((r) => r.id);
    });
  };
}

type HitRow = {
  id: number;
  message_id: string;
  thread_id: number;
  subject: string;
  from_text: string;
  date: number;
  /** Cut around the words, or the start of the body when the query has none at its top; null for a row of a
   * thread the page already shows. */
  snippet: string | null;
};
