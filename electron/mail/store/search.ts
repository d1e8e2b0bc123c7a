// Full-text search over stored mail (FTS5). Users may type FTS syntax (phrases, AND/OR/NOT, prefix*,
// NEAR, column filters from:/to:/subject:/body:); what FTS cannot parse, such as a bare address with
// "@" or a stray quote, is retried with every word taken literally, so a search never fails on syntax.
import type { SearchHit } from '../../../shared/contract.ts';
import type { Db } from '../../db/open.ts';

const columns = new Set(['subject', 'from', 'to', 'body']);

export function prepareSearch(db: Db) {
  const query = db.prepare<[string, number], SearchRow>(
    `SELECT m.id, m.message_id, m.thread_id, m.subject, m.from_text, m.date,
            snippet(messages_fts, 3, '', '', '…', 12) AS snippet
       FROM messages_fts JOIN messages m ON m.id = messages_fts.rowid
      WHERE messages_fts MATCH ? ORDER BY rank LIMIT ?`,
  );

  return function search(text: string, limit: number): SearchHit[] {
    let rows: SearchRow[];
    try {
      rows = query.all(text, limit);
    } catch (e) {
      if (!isFtsSyntaxError(e)) throw e;
      // Quoted phrases are always valid FTS syntax.
      rows = query.all(literalQuery(text), limit);
    }
    return rows.map((r) => ({
      id: r.id,
      messageId: r.message_id,
      threadId: r.thread_id,
      subject: r.subject,
      from: r.from_text,
      date: r.date,
      snippet: r.snippet.replace(/\s+/g, ' ').trim(),
    }));
  };
}

type SearchRow = {
  id: number;
  message_id: string;
  thread_id: number;
  subject: string;
  from_text: string;
  date: number;
  snippet: string;
};

function isFtsSyntaxError(e: unknown): boolean {
  const msg = e instanceof Error ? e.message : '';
  return /fts5|syntax error|unterminated string|no such column|unknown special query/i.test(msg);
}

// Every whitespace-separated word becomes a quoted phrase; a known column filter is kept.
export function literalQuery(text: string): string {
  return text
    .split(/\s+/)
    .filter((w) => w.length > 0)
    .map((w) => {
      const m = /^([a-z]+):(.+)$/i.exec(w);
      const col = m?.[1]?.toLowerCase();
      const term = col && columns.has(col) ? (m?.[2] ?? '') : w;
      const quoted = `"${term.replace(/"/g, '""')}"`;
      return col && columns.has(col) ? `${col}:${quoted}` : quoted;
    })
    .filter((w) => w !== '""')
    .join(' ');
}
