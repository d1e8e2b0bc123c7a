// The user's drafts (issue 4: "a local draft the user can edit and send"): listed, edited, sent through the
// outbox (10 seconds to undo, like any send) or discarded. The assistant creates drafts through undo.ts, so
// that Undo can take them back; what the user does here is their own doing and is not on the undo list.
import type { DraftView } from '../../shared/contract.ts';
import { BridgeFailure } from '../bridge/dispatch.ts';
import type { Db } from '../db/open.ts';
import { NoSender, type OutboxItem, prepareOutbox } from './outbox.ts';

type Row = {
  id: number;
  to_json: string;
  cc_json: string;
  subject: string;
  body: string;
  in_reply_to: number | null;
  updated_at: number;
};
const toView = (r: Row): DraftView => ({
  id: r.id,
  to: JSON.parse(r.to_json),
  cc: JSON.parse(r.cc_json),
  subject: r.subject,
  body: r.body,
  inReplyTo: r.in_reply_to,
  updatedAt: r.updated_at,
});

export function prepareDrafts(db: Db, now: () => number = Date.now) {
  const all = db.prepare<[], Row>('SELECT * FROM drafts ORDER BY updated_at DESC, id DESC');
  const byId = db.prepare<[number], Row>('SELECT * FROM drafts WHERE id = ?');
  const update = db.prepare<[string, string, string, string, number, number]>(
    'UPDATE drafts SET to_json = ?, cc_json = ?, subject = ?, body = ?, updated_at = ? WHERE id = ?',
  );
  const drop = db.prepare<[number]>('DELETE FROM drafts WHERE id = ?');
  const outbox = prepareOutbox(db, now);

  const found = (id: number): Row => {
    const r = byId.get(id);
    if (!r) throw new BridgeFailure('not_found', 'That draft does not exist.');
    return r;
  };

  return {
    list: (): DraftView[] => all.all().map(toView),

    save(d: { id: number; to: string[]; cc: string[]; subject: string; body: string }): DraftView {
      found(d.id);
      update.run(JSON.stringify(d.to), JSON.stringify(d.cc), d.subject, d.body, now(), d.id);
      return toView(found(d.id));
    },

    /** Queues the draft in the outbox from the account of the message it answers, and removes it. */
    send(id: number): OutboxItem {
      const d = toView(found(id));
      if (d.to.length === 0)
        throw new BridgeFailure('invalid_request', 'Add at least one recipient before sending.');
      return db.transaction(() => {
        let account: number;
        try {
          account = outbox.senderFor(d.inReplyTo);
        } catch (e) {
          if (e instanceof NoSender) throw new BridgeFailure('invalid_request', e.message);
          throw e;
        }
        const item = outbox.queue(account, {
          to: d.to,
          cc: d.cc,
          subject: d.subject,
          body: d.body,
          inReplyTo: d.inReplyTo,
        });
        drop.run(id);
        return item;
      })();
    },

    discard: (id: number): boolean => drop.run(id).changes > 0,
  };
}
