// Owns `message_unsubscribe` and `unsubscribed_senders` (migration 0037): how each stored message offers to
// unsubscribe (written by store.ts in the same transaction as the message), and the senders you unsubscribed
// from, per lower-cased address, so "Unsubscribed on DATE" shows on every message of that sender thereafter.
import type { Db } from '../../db/open.ts';
import type { UnsubscribeLinks } from './list-unsubscribe.ts';

export type UnsubscribeMethod = 'one-click' | 'mailto' | 'http';

type OfferRow = {
  from_addr: string;
  https: string | null;
  http: string | null;
  mailto: string | null;
  one_click: number | null;
  at: number | null;
  method: UnsubscribeMethod | null;
};

type StoredOffer = {
  /** The sender, lower-cased: what an unsubscribe is kept on. */
  sender: string;
  /** null: the message offers no way to unsubscribe. */
  links: UnsubscribeLinks | null;
  unsubscribed: { at: number; method: UnsubscribeMethod } | null;
};

export function prepareUnsubscribeStore(db: Db) {
  const save = db.prepare<[number, string | null, string | null, string | null, number]>(
    'INSERT OR REPLACE INTO message_unsubscribe (message_id, https, http, mailto, one_click) VALUES (?, ?, ?, ?, ?)',
  );
  const offer = db.prepare<[number], OfferRow>(
    // An unsubscribe by email counts while its message is queued, going or sent: one Undo took back (its outbox row
    // gone, or cancelled) or that failed did not unsubscribe (migration 0044).
    `SELECT m.from_addr, u.https, u.http, u.mailto, u.one_click, s.at, s.method FROM messages m
       LEFT JOIN message_unsubscribe u ON u.message_id = m.id
       LEFT JOIN unsubscribed_senders s ON s.address = lower(trim(m.from_addr))
         AND (s.outbox_id IS NULL OR EXISTS (
           SELECT 1 FROM outbox o WHERE o.id = s.outbox_id AND o.state IN ('queued', 'sending', 'sent')))
     WHERE m.id = ?`,
  );
  const mark = db.prepare<[string, number, UnsubscribeMethod, number | null]>(
    `INSERT INTO unsubscribed_senders (address, at, method, outbox_id) VALUES (?, ?, ?, ?)
     ON CONFLICT (address) DO UPDATE SET at = excluded.at, method = excluded.method, outbox_id = excluded.outbox_id`,
  );
  return {
    save(messageId: number, links: UnsubscribeLinks): void {
      save.run(messageId, links.https, links.http, links.mailto, links.oneClick ? 1 : 0);
    },
    /** What the reader shows for a message; null when there is no such message. */
    offer(messageId: number): StoredOffer | null {
      const r = offer.get(messageId);
      if (!r) return null;
      return {
        sender: r.from_addr.trim().toLowerCase(),
        links:
          r.one_click === null
            ? null
            : { https: r.https, http: r.http, mailto: r.mailto, oneClick: r.one_click === 1 },
        unsubscribed: r.at !== null && r.method !== null ? { at: r.at, method: r.method } : null,
      };
    },
    /** `outboxId`: the message an unsubscribe by email queued, which Undo may take back. */
    markSender(address: string, at: number, method: UnsubscribeMethod, outboxId: number | null = null): void {
      mark.run(address.trim().toLowerCase(), at, method, outboxId);
    },
  };
}
