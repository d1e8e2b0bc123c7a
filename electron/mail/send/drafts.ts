// The user's drafts (issue 4: "a local draft the user can edit and send"): listed, edited, sent through the
// outbox (10 seconds to undo, like any send) or discarded. Undo of a send puts the message back here (Gmail
// reopens it as a draft), and a send that failed can come back too, so nothing written is lost. The assistant creates drafts through undo.ts, so
// that Undo can take them back; what the user does here is their own doing and is not on the undo list.
import { replyThreading } from '../../../shared/compose/references.ts';
import type { DraftDetail, DraftView } from '../../../shared/contract/index.ts';
import type { Db } from '../../db/open.ts';
import { nextId } from '../../db/retired-ids.ts';
import { MailError } from '../mail-error.ts';
import { type KeptState, type OutboxItem, type OutgoingMail, prepareOutbox } from './outbox.ts';

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

// Only a message that will not go out by itself can leave the outbox: one on its way could still be sent.
const notDismissable: Record<KeptState, string> = {
  queued: 'That message is still waiting to go out: undo the send first.',
  sending: 'That message is being sent right now, so it cannot go back to the drafts.',
  sent: 'That message was already sent.',
};

export function prepareDrafts(db: Db, now: () => number = Date.now) {
  const all = db.prepare<[], Row>('SELECT * FROM drafts ORDER BY updated_at DESC, id DESC');
  const byId = db.prepare<[number], Row>('SELECT * FROM drafts WHERE id = ?');
  const update = db.prepare<[string, string, string, string, number, number]>(
    'UPDATE drafts SET to_json = ?, cc_json = ?, subject = ?, body = ?, updated_at = ? WHERE id = ?',
  );
  const drop = db.prepare<[number]>('DELETE FROM drafts WHERE id = ?');
  const add = db.prepare(
    // Past every id ever given (migration 0022): a queued APPEND names its draft by id.
    `INSERT INTO drafts (id, to_json, cc_json, subject, body, in_reply_to, created_at, updated_at)
     VALUES (${nextId('drafts')}, @to, @cc, @subject, @body, @inReplyTo, @at, @at)`,
  );
  const outbox = prepareOutbox(db, now);
  const login = db.prepare<[number], { username: string }>(
    'SELECT username FROM imap_accounts WHERE account_id = ?',
  );
  const answered = db.prepare<[number], { message_id: string; refs: string }>(
    'SELECT message_id, refs FROM messages WHERE id = ?',
  );

  // The From and threading headers the outbox will write for it (outbox.ts sendDue, compose.ts).
  function detail(d: DraftView): DraftDetail {
    let from: string | null = null;
    try {
      from = login.get(outbox.senderFor(d.inReplyTo))?.username ?? null;
    } catch (e) {
      if (!(e instanceof MailError)) throw e; // no account can send yet
    }
    const original = d.inReplyTo === null ? undefined : answered.get(d.inReplyTo);
    const { inReplyTo, references } = replyThreading({
      messageId: original?.message_id ?? '',
      references: original ? (JSON.parse(original.refs) as string[]) : [],
    });
    return { ...d, from, inReplyToHeader: inReplyTo, references };
  }

  const found = (id: number): Row => {
    const r = byId.get(id);
    if (!r) throw new MailError('not_found', 'That draft does not exist.');
    return r;
  };

  // The caller's transaction holds the take and the insert together.
  function backFromOutbox(outboxId: number): DraftView {
    const taken = outbox.take(outboxId);
    if (taken === null) throw new MailError('not_found', 'That message is not in the outbox.');
    if ('state' in taken) throw new MailError('wrong_state', notDismissable[taken.state]);
    const { mail } = taken;
    const id = Number(
      add.run({
        to: JSON.stringify(mail.to),
        cc: JSON.stringify(mail.cc),
        subject: mail.subject,
        body: mail.body,
        inReplyTo: mail.inReplyTo,
        at: now(),
      }).lastInsertRowid,
    );
    return toView(found(id));
  }

  return {
    list: (): DraftView[] => all.all().map(toView),

    /** A new draft the user wrote (or made with Reply, Reply all, Forward: answer.ts). */
    create(d: OutgoingMail): DraftDetail {
      const id = Number(
        add.run({
          to: JSON.stringify(d.to),
          cc: JSON.stringify(d.cc),
          subject: d.subject,
          body: d.body,
          inReplyTo: d.inReplyTo,
          at: now(),
        }).lastInsertRowid,
      );
      return detail(toView(found(id)));
    },

    /** The draft with the From and threading headers it will be sent with. */
    show: (id: number): DraftDetail => detail(toView(found(id))),

    save(d: { id: number; to: string[]; cc: string[]; subject: string; body: string }): DraftView {
      found(d.id);
      update.run(JSON.stringify(d.to), JSON.stringify(d.cc), d.subject, d.body, now(), d.id);
      return toView(found(d.id));
    },

    /** Queues the draft in the outbox from the account of the message it answers, and removes it. */
    send(id: number): OutboxItem {
      const d = toView(found(id));
      if (d.to.length === 0) throw new MailError('invalid', 'Add at least one recipient before sending.');
      return db.transaction(() => {
        const account = outbox.senderFor(d.inReplyTo);
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

    /**
     * Undo of a send (`outbox:cancel`), whoever sent it (the user's Send, an approved send_mail): cancels the
     * message and makes it a draft again in one transaction, so a cancelled message is never lost. A
     * message already on its way, sent or unknown is left as it is, and no draft is made.
     */
    undoSend: db.transaction((outboxId: number): { cancelled: boolean; draft: number | null } => {
      if (!outbox.cancel(outboxId)) return { cancelled: false, draft: null };
      return { cancelled: true, draft: backFromOutbox(outboxId).id };
    }),

    /** Takes a failed or cancelled message out of the outbox and makes it a draft again, in one transaction. */
    fromOutbox: db.transaction(backFromOutbox),
  };
}
