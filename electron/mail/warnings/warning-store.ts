// Owns `message_warnings` (migration 0027): the warnings of each message, written once when it is stored
// (store.ts calls `check` in the same transaction as the insert), and for mail stored before the warnings
// existed by `backfill`, which the app runs in slices after it opens, and by `ensure` when one is read first.
import {
  type Address,
  type MessageWarning,
  MessageWarning as MessageWarningSchema,
} from '../../../shared/contract/index.ts';
import type { Db } from '../../db/open.ts';
import { type DomainBook, loadDomainBook, type StoredMail } from './known-domains.ts';
import { messageWarnings, type WarningInput } from './message-warnings.ts';

type Row = {
  id: number;
  folder_id: number;
  from_name: string;
  from_addr: string;
  to_json: string;
  cc_json: string;
  body_text: string;
  body_html: string | null;
};

const rowColumns =
  'm.id, m.folder_id, m.from_name, m.from_addr, m.to_json, m.cc_json, m.body_text, m.body_html';

export function prepareWarnings(db: Db) {
  const save = db.prepare<[number, string]>(
    'INSERT OR REPLACE INTO message_warnings (message_id, warnings_json) VALUES (?, ?)',
  );
  const stored = db
    .prepare<[number], string>('SELECT warnings_json FROM message_warnings WHERE message_id = ?')
    .pluck();
  const unchecked = db.prepare<[number], Row>(
    `SELECT ${rowColumns} FROM messages m
      WHERE NOT EXISTS (SELECT 1 FROM message_warnings w WHERE w.message_id = m.id) ORDER BY m.id LIMIT ?`,
  );
  const byId = db.prepare<[number], Row>(`SELECT ${rowColumns} FROM messages m WHERE m.id = ?`);
  let book: DomainBook | null = null;
  // Loaded once (one pass over the mailbox) and kept up to date by what this connection stores.
  const domains = () => {
    book ??= loadDomainBook(db);
    return book;
  };

  function check(id: number, m: WarningInput & StoredMail): MessageWarning[] {
    const b = domains();
    const warnings = messageWarnings(m, b.known);
    save.run(id, JSON.stringify(warnings));
    b.note(m, warnings);
    return warnings;
  }

  // Mail stored before 0027: its headers were not kept, so only the checks on its sender and bodies run.
  const checkRow = (r: Row) =>
    check(r.id, {
      folderId: r.folder_id,
      from: { name: r.from_name, address: r.from_addr },
      to: JSON.parse(r.to_json) as Address[],
      cc: JSON.parse(r.cc_json) as Address[],
      text: r.body_text,
      html: r.body_html,
      trust: null,
    });

  return {
    check,

    /** The stored warnings of a message, checking it first when it has none yet; null when there is no message. */
    ensure(id: number): MessageWarning[] | null {
      const json = stored.get(id);
      if (json !== undefined) return MessageWarningSchema.array().parse(JSON.parse(json));
      const row = byId.get(id);
      return row ? checkRow(row) : null;
    },

    /** Checks up to `limit` messages that have no warnings row yet, oldest first; returns how many it checked. */
    backfill: db.transaction((limit: number): number => {
      const rows = unchecked.all(limit);
      for (const r of rows) checkRow(r);
      return rows.length;
    }),
  };
}
