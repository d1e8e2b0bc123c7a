// The user's drafts (issue 4: "a local draft the user can edit and send"): listed, edited, sent through the
// outbox (10 seconds to undo, like any send) or discarded. Undo of a send puts the message back here (Gmail
// reopens it as a draft), and a send that failed can come back too, so nothing written is lost. The assistant creates drafts through undo.ts, so
// that Undo can take them back; what the user does here is their own doing and is not on the undo list.
// A draft carries the From chosen (one of your addresses, identities.ts), Bcc and its files (draft-files.ts),
// and is kept in the Drafts folder of the account that will send it (DESIGN §11, "Drafts on the server").

import { detectMimeType } from 'nodemailer/lib/mime-funcs';
import { replyThreading } from '../../../shared/compose/references.ts';
import type { DraftAttachment, DraftDetail, DraftView } from '../../../shared/contract/index.ts';
import { maxAttachmentBytes } from '../../../shared/contract/index.ts';
import { addressKey, parseMailbox } from '../../../shared/mail-address.ts';
import type { Db } from '../../db/open.ts';
import { nextId } from '../../db/retired-ids.ts';
import { prepareIdentities } from '../identities.ts';
import { MailError } from '../mail-error.ts';
import { newMessageId, prepareAccountLogin } from '../message-id.ts';
import { prepareWriteBack } from '../store/write-back.ts';
import { type Carried, prepareDraftFiles } from './draft-files.ts';
import { type KeptState, type OutboxItem, type OutgoingMail, prepareOutbox } from './outbox.ts';

type Row = {
  id: number;
  from_address: string | null;
  to_json: string;
  cc_json: string;
  bcc_json: string;
  subject: string;
  body: string;
  in_reply_to: number | null;
  forward_of: number | null;
  server_account: number | null;
  server_message_id: string | null;
  updated_at: number;
};

/** A new draft: an outgoing message, with the files a forward carries. */
export type NewDraft = OutgoingMail & { carried?: readonly Carried[] };
/** What draft:save sets; Bcc and From left out stay as they were. */
export type DraftChange = {
  id: number;
  to: string[];
  cc: string[];
  bcc?: string[];
  fromAddress?: string | null;
  subject: string;
  body: string;
};

// The user's own files on one draft, together (Gmail's bound for a whole message).
const maxDraftFileBytes = maxAttachmentBytes;

// Only a message that will not go out by itself can leave the outbox: one on its way could still be sent.
const notDismissable: Record<KeptState, string> = {
  queued: 'That message is still waiting to go out: undo the send first.',
  sending: 'That message is being sent right now, so it cannot go back to the drafts.',
  sent: 'That message was already sent.',
};

export function prepareDrafts(db: Db, now: () => number = Date.now) {
  const all = db.prepare<[], Row>('SELECT * FROM drafts ORDER BY updated_at DESC, id DESC');
  const byId = db.prepare<[number], Row>('SELECT * FROM drafts WHERE id = ?');
  const update = db.prepare(
    `UPDATE drafts SET from_address = @fromAddress, to_json = @to, cc_json = @cc, bcc_json = @bcc,
       subject = @subject, body = @body, updated_at = @at WHERE id = @id`,
  );
  const drop = db.prepare<[number]>('DELETE FROM drafts WHERE id = ?');
  const add = db.prepare(
    // Past every id ever given (migration 0022): a queued APPEND names its draft by id.
    `INSERT INTO drafts (id, from_address, to_json, cc_json, bcc_json, subject, body, in_reply_to, forward_of,
       created_at, updated_at)
     VALUES (${nextId('drafts')}, @fromAddress, @to, @cc, @bcc, @subject, @body, @inReplyTo, @forwardOf, @at, @at)`,
  );
  const setServerCopy = db.prepare<[number | null, string | null, number]>(
    'UPDATE drafts SET server_account = ?, server_message_id = ? WHERE id = ?',
  );
  const appendPending = db
    .prepare<[number, string]>(
      `SELECT 1 FROM mail_ops WHERE account_id = ? AND kind = 'append_draft' AND state = 'pending'
         AND payload_json ->> 'messageId' = ?`,
    )
    .pluck();
  const outbox = prepareOutbox(db, now);
  const loginOf = prepareAccountLogin(db);
  const files = prepareDraftFiles(db, now);
  const identities = prepareIdentities(db, now);
  const writeBack = prepareWriteBack(db, now);
  const login = db.prepare<[number], { username: string }>(
    'SELECT username FROM imap_accounts WHERE account_id = ?',
  );
  const smtpAccounts = db.prepare<[], { account_id: number; username: string }>(
    'SELECT account_id, username FROM imap_accounts WHERE smtp_host IS NOT NULL ORDER BY account_id',
  );
  const answered = db.prepare<[number], { message_id: string; refs: string }>(
    'SELECT message_id, refs FROM messages WHERE id = ?',
  );

  const toView = (r: Row): DraftView => ({
    id: r.id,
    fromAddress: r.from_address,
    to: JSON.parse(r.to_json),
    cc: JSON.parse(r.cc_json),
    bcc: JSON.parse(r.bcc_json),
    subject: r.subject,
    body: r.body,
    inReplyTo: r.in_reply_to,
    forwardOf: r.forward_of,
    attachments: files.ofDraft(r.id),
    updatedAt: r.updated_at,
  });

  /** The From as stored: one of your addresses, lower-cased; else MailError `invalid` with a sentence. */
  function checkedFrom(address: string | null | undefined): string | null {
    if (address === null || address === undefined || address.trim() === '') return null;
    const key = addressKey(parseMailbox(address) ?? address);
    if (identities.list().some((i) => i.address === key)) return key;
    throw new MailError(
      'invalid',
      `The From address is not one of your addresses: add it under Your addresses (skimmer identity add) to send from it.`,
    );
  }

  /**
   * The account a message from `fromAddress` goes out through (DESIGN §11, "From"): an account's own address
   * sends through that account; another of your addresses (an alias) through the account that sends by
   * default, the one of the message answered or forwarded (outbox.ts senderFor).
   */
  function sendingAccount(fromAddress: string | null, about: number | null): number {
    if (fromAddress !== null) {
      const own = smtpAccounts.all().find((a) => addressKey(parseMailbox(a.username) ?? '') === fromAddress);
      if (own) return own.account_id;
    }
    return outbox.senderFor(about);
  }
  const sendingAccountOrNull = (fromAddress: string | null, about: number | null): number | null => {
    try {
      return sendingAccount(fromAddress, about);
    } catch (e) {
      if (!(e instanceof MailError)) throw e;
      return null; // no account can send yet
    }
  };

  // The From and threading headers the outbox will write for it (outbox.ts sendDue, compose.ts).
  function detail(d: DraftView): DraftDetail {
    const account = sendingAccountOrNull(d.fromAddress, d.inReplyTo ?? d.forwardOf);
    const from = d.fromAddress ?? (account === null ? null : (login.get(account)?.username ?? null));
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

  // The draft's copy in its account's Drafts folder (write-back `append_draft`, replayed by the next sync):
  // a save replaces it, as Thunderbird and Gmail do. While an APPEND is still queued it reads the draft as it
  // is then, so saving as one types queues nothing more until that APPEND has gone.
  function keepOnServer(id: number): void {
    const r = found(id);
    const account = sendingAccountOrNull(r.from_address, r.in_reply_to ?? r.forward_of);
    if (r.server_account !== null && r.server_message_id !== null) {
      if (r.server_account === account && appendPending.get(account, r.server_message_id)) return;
      writeBack.queueFor(r.server_account, { kind: 'drop_draft', messageId: r.server_message_id });
    }
    if (account === null) {
      setServerCopy.run(null, null, id);
      return;
    }
    const messageId = newMessageId(`skimmer-draft.${id}`, r.from_address ?? loginOf(account), now());
    writeBack.queueFor(account, { kind: 'append_draft', draftId: id, messageId });
    setServerCopy.run(account, messageId, id);
  }

  function dropFromServer(r: Row): void {
    if (r.server_account !== null && r.server_message_id !== null) {
      writeBack.queueFor(r.server_account, { kind: 'drop_draft', messageId: r.server_message_id });
    }
  }

  // `fromAddress` as checkedFrom gave it.
  function insert(d: NewDraft, fromAddress: string | null): number {
    const id = Number(
      add.run({
        fromAddress,
        to: JSON.stringify(d.to),
        cc: JSON.stringify(d.cc),
        bcc: JSON.stringify(d.bcc ?? []),
        subject: d.subject,
        body: d.body,
        inReplyTo: d.inReplyTo,
        forwardOf: d.forwardOf ?? null,
        at: now(),
      }).lastInsertRowid,
    );
    files.addCarried(id, d.carried ?? []);
    return id;
  }

  // The caller's transaction holds the take and the insert together.
  function backFromOutbox(outboxId: number): DraftView {
    let id = 0;
    const taken = outbox.take(outboxId, (mail) => {
      // The From was checked when it was sent; an address removed since is not a reason to lose the message.
      id = insert(mail, mail.fromAddress ?? null);
      files.moveToDraft(outboxId, id);
    });
    if (taken === null) throw new MailError('not_found', 'That message is not in the outbox.');
    if ('state' in taken) throw new MailError('wrong_state', notDismissable[taken.state]);
    keepOnServer(id);
    return toView(found(id));
  }

  return {
    list: (): DraftView[] => all.all().map(toView),

    /**
     * A new draft the user wrote (or made with Reply, Reply all, Forward: answer.ts). A `local` one (a reply
     * the model drafted) stays off the server until the user's first own save: nothing the user has not
     * looked at is saved to the server (issue 17).
     */
    create: (d: NewDraft, opts: { local?: boolean } = {}): DraftDetail =>
      db.transaction(() => {
        const id = insert(d, checkedFrom(d.fromAddress));
        if (!opts.local) keepOnServer(id);
        return detail(toView(found(id)));
      })(),

    /** The draft with the From and threading headers it will be sent with. */
    show: (id: number): DraftDetail => detail(toView(found(id))),

    save: (d: DraftChange): DraftView =>
      db.transaction(() => {
        const r = found(d.id);
        update.run({
          fromAddress: d.fromAddress === undefined ? r.from_address : checkedFrom(d.fromAddress),
          to: JSON.stringify(d.to),
          cc: JSON.stringify(d.cc),
          bcc: d.bcc === undefined ? r.bcc_json : JSON.stringify(d.bcc),
          subject: d.subject,
          body: d.body,
          at: now(),
          id: d.id,
        });
        keepOnServer(d.id);
        return toView(found(d.id));
      })(),

    /** The user's file, complete, stored with its draft in one transaction (uploads.ts gathered it). */
    attachFile: (
      draftId: number,
      file: { name: string; contentType: string; content: Buffer },
    ): DraftAttachment =>
      db.transaction(() => {
        found(draftId);
        if (files.fileBytes(draftId) + file.content.length > maxDraftFileBytes) throw tooBig();
        // A type the picker did not know is guessed from the name, as mail programs do.
        return files.addFile(draftId, {
          ...file,
          contentType: file.contentType || detectMimeType(file.name),
        });
      })(),

    /** Refuses a file before its bytes are sent when it would not fit with what the draft holds (`pending`). */
    checkRoom(draftId: number, size: number, pending: number): void {
      found(draftId);
      if (files.fileBytes(draftId) + pending + size > maxDraftFileBytes) throw tooBig();
    },

    detach: (draftId: number, attachmentId: number): DraftView =>
      db.transaction(() => {
        found(draftId);
        if (!files.detach(draftId, attachmentId))
          throw new MailError('not_found', 'That file is not attached to this draft.');
        return toView(found(draftId));
      })(),

    /**
     * Queues the draft in the outbox from the account that sends it (sendingAccount), with its files, and
     * removes it here and from the server's Drafts.
     */
    send(id: number): OutboxItem {
      const d = toView(found(id));
      if (d.to.length + d.cc.length + d.bcc.length === 0)
        throw new MailError('invalid', 'Add at least one recipient before sending.');
      return db.transaction(() => {
        const r = found(id);
        // Checked again: the address may have been removed from yours since the draft was saved.
        const fromAddress = checkedFrom(r.from_address);
        const account = sendingAccount(fromAddress, d.inReplyTo ?? d.forwardOf);
        const item = outbox.queue(account, {
          to: d.to,
          cc: d.cc,
          bcc: d.bcc,
          subject: d.subject,
          body: d.body,
          inReplyTo: d.inReplyTo,
          fromAddress,
          forwardOf: d.forwardOf,
        });
        files.moveToOutbox(id, item.id);
        dropFromServer(r);
        drop.run(id);
        return item;
      })();
    },

    discard: (id: number): boolean =>
      db.transaction(() => {
        const r = byId.get(id);
        if (!r) return false;
        dropFromServer(r);
        return drop.run(id).changes > 0;
      })(),

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

const tooBig = () =>
  new MailError(
    'invalid',
    `A draft's files can be at most ${maxDraftFileBytes / 1024 / 1024} MB together: this one does not fit.`,
  );
