// The outbox (issue 5). A message to send — from an approved `send_mail` call or the user's own Send —
// waits here for the undo window (shared/undo-window.ts), during which Undo cancels it; then `sendDue` sends it by SMTP and queues its
// copy for the account's Sent folder. Owns `outbox`. Claiming a message for sending is one UPDATE from
// `queued`, so a message is never sent twice and never sent after a cancel that won. A failed or cancelled
// message can be taken out again (drafts.ts puts it back in the drafts: at once for an Undo, on request for
// a failure); every change is announced to the watchers (`watchOutbox`), which the page hears on
// `account:watch`.
import type { Transporter } from 'nodemailer';
import { undoWindowMs } from '../../../shared/undo-window.ts';
import type { Db } from '../../db/open.ts';
import { type Places, userPlaces } from '../../files/safe-open.ts';
import type { AccountLogin, Accounts } from '../accounts.ts';
import { mailFailure } from '../imap/imap-connect.ts';
import { MailError } from '../mail-error.ts';
import { newMessageId, prepareAccountLogin } from '../message-id.ts';
import { prepareWriteBack } from '../store/write-back.ts';
import { compose } from './compose.ts';
import { prepareDraftFiles } from './draft-files.ts';
import { ForwardUnreadable, prepareForwardedReader } from './forwarded.ts';
import { smtpTransport } from './smtp-connect.ts';

export { undoWindowMs };

export type OutgoingMail = {
  to: string[];
  cc: string[];
  /** In the SMTP envelope only, and in the Sent copy's headers (compose.ts). */
  bcc?: string[];
  subject: string;
  body: string;
  inReplyTo: number | null;
  /** One of your addresses to send from (drafts.ts checked it); null or absent: the account's login. */
  fromAddress?: string | null;
  /** The message it forwards, whose attachments it carries (draft-files.ts). */
  forwardOf?: number | null;
};
type OutboxState = 'queued' | 'sending' | 'sent' | 'failed' | 'cancelled';
/** The states a message cannot be taken out of the outbox in: it is on its way, or gone. */
export type KeptState = Exclude<OutboxState, 'failed' | 'cancelled'>;
export type OutboxItem = {
  id: number;
  accountId: number;
  to: string[];
  subject: string;
  state: OutboxState;
  error: string | null;
  sendAfter: number;
  sentAt: number | null;
};

type Row = {
  id: number;
  account_id: number;
  message_id: string;
  to_json: string;
  cc_json: string;
  bcc_json: string;
  from_address: string | null;
  forward_of: number | null;
  subject: string;
  body: string;
  in_reply_to: number | null;
  state: OutboxState;
  error: string | null;
  send_after: number;
  sent_at: number | null;
};
const toItem = (r: Row): OutboxItem => ({
  id: r.id,
  accountId: r.account_id,
  to: JSON.parse(r.to_json),
  subject: r.subject,
  state: r.state,
  error: r.error,
  sendAfter: r.send_after,
  sentAt: r.sent_at,
});

/** A message in the outbox changed; `item` is null when it left the outbox (dismissed back to the drafts). */
export type OutboxChange = { id: number; item: OutboxItem | null };

// Who hears of outbox changes, per database connection: every writer in this process (the page's Send, an
// approved send_mail, the sender, another page's Undo) shares the app's connection, so all of them are heard
// whichever prepareOutbox they went through.
const listeners = new WeakMap<Db, Set<(change: OutboxChange) => void>>();

/** Calls `onChange` after every change to the outbox made through `db`, until the returned function is called. */
export function watchOutbox(db: Db, onChange: (change: OutboxChange) => void): () => void {
  const set = listeners.get(db) ?? new Set();
  listeners.set(db, set);
  set.add(onChange);
  return () => set.delete(onChange);
}

/**
 * `sources`: where the files imported mail came from may be read, for the attachments of a forward (the app
 * passes the user's places and the demo mailbox, from which imports read).
 */
export function prepareOutbox(db: Db, now: () => number = Date.now, sources: Places = userPlaces()) {
  const senders = db.prepare<[], { account_id: number }>(
    'SELECT account_id FROM imap_accounts WHERE smtp_host IS NOT NULL ORDER BY account_id',
  );
  const accountOfMessage = db.prepare<[number], { account_id: number; smtp: number }>(
    `SELECT f.account_id, (i.smtp_host IS NOT NULL) AS smtp FROM messages m JOIN folders f ON f.id = m.folder_id
     JOIN imap_accounts i ON i.account_id = f.account_id WHERE m.id = ?`,
  );
  // The login is the From of a message with no address of its own (sendDue), so its domain names the Message-ID.
  const loginOf = prepareAccountLogin(db);
  const insert = db.prepare(
    `INSERT INTO outbox (account_id, message_id, to_json, cc_json, bcc_json, from_address, forward_of, subject, body,
       in_reply_to, created_at, send_after)
     VALUES (@account, @messageId, @to, @cc, @bcc, @fromAddress, @forwardOf, @subject, @body, @inReplyTo, @at, @after)`,
  );
  const byId = db.prepare<[number], Row>('SELECT * FROM outbox WHERE id = ?');
  const recent = db.prepare<[number], Row>(
    "SELECT * FROM outbox WHERE state IN ('queued', 'sending', 'failed') OR sent_at > ? ORDER BY id DESC",
  );
  const cancel = db.prepare<[number]>(
    "UPDATE outbox SET state = 'cancelled' WHERE id = ? AND state = 'queued'",
  );
  // An account whose provider refused its saved sign-in waits, its mail kept queued, until the person signs in
  // again (issue 28): nothing fails for it meanwhile and nothing needs a retry after.
  const due = db.prepare<[number], Row>(
    `SELECT * FROM outbox WHERE state = 'queued' AND send_after <= ?
       AND account_id NOT IN (SELECT account_id FROM oauth_accounts WHERE needs_signin = 1)
     ORDER BY send_after, id`,
  );
  const needsSignIn = db
    .prepare<[number], number>(
      'SELECT count(*) FROM oauth_accounts WHERE account_id = ? AND needs_signin = 1',
    )
    .pluck();
  const waitForSignIn = db.prepare<[string, number]>(
    "UPDATE outbox SET state = 'queued', error = ? WHERE id = ? AND state = 'sending'",
  );
  const claim = db.prepare<[number]>("UPDATE outbox SET state = 'sending' WHERE id = ? AND state = 'queued'");
  const sent = db.prepare<[Buffer, number, number]>(
    "UPDATE outbox SET state = 'sent', raw = ?, sent_at = ?, error = NULL WHERE id = ?",
  );
  const failed = db.prepare<[string, number]>("UPDATE outbox SET state = 'failed', error = ? WHERE id = ?");
  const requeue = db.prepare<[number, number]>(
    "UPDATE outbox SET state = 'queued', send_after = ?, error = NULL WHERE id = ? AND state = 'failed'",
  );
  const unstick = db.prepare("UPDATE outbox SET state = 'failed', error = ? WHERE state = 'sending'");
  const drop = db.prepare<[number]>("DELETE FROM outbox WHERE id = ? AND state IN ('failed', 'cancelled')");
  const identityName = db
    .prepare<[string], string | null>('SELECT name FROM identities WHERE address = ?')
    .pluck();
  const files = prepareDraftFiles(db, now);

  // The row is read now, so that every step is told (queued, sending, sent), and told on the next turn, so
  // that no watcher runs inside a caller's transaction.
  function announce(id: number): void {
    const set = listeners.get(db);
    if (!set?.size) return;
    const row = byId.get(id);
    const change = { id, item: row ? toItem(row) : null };
    setImmediate(() => {
      for (const onChange of set) onChange(change);
    });
  }
  const changed = (id: number, changes: number): boolean => {
    if (changes > 0) announce(id);
    return changes > 0;
  };

  return {
    /** The account that sends a message: the one the answered message lives in, else the first that can. */
    senderFor(inReplyTo: number | null): number {
      const own = inReplyTo === null ? undefined : accountOfMessage.get(inReplyTo);
      if (own?.smtp) return own.account_id;
      const first = senders.get();
      if (!first)
        throw new MailError(
          'no_sender',
          'No account can send mail yet: add a mail account with an SMTP server.',
        );
      return first.account_id;
    },

    /** Queues a message; it goes out after the undo window. */
    queue(accountId: number, mail: OutgoingMail): OutboxItem {
      const at = now();
      const id = Number(
        insert.run({
          account: accountId,
          messageId: newMessageId('skimmer', mail.fromAddress ?? loginOf(accountId), at),
          to: JSON.stringify(mail.to),
          cc: JSON.stringify(mail.cc),
          bcc: JSON.stringify(mail.bcc ?? []),
          fromAddress: mail.fromAddress ?? null,
          forwardOf: mail.forwardOf ?? null,
          subject: mail.subject,
          body: mail.body,
          inReplyTo: mail.inReplyTo,
          at,
          after: at + undoWindowMs,
        }).lastInsertRowid,
      );
      announce(id);
      return toItem(byId.get(id) as Row);
    },

    /** Undo: true when the message had not started to go out. */
    cancel: (id: number): boolean => changed(id, cancel.run(id).changes),
    retry: (id: number): boolean => changed(id, requeue.run(now(), id).changes),

    /**
     * Takes a failed or cancelled message out of the outbox and returns what it was; a message still on its
     * way, or sent, stays, and its state is returned instead. null: there is no such message. `keep` runs
     * before the row goes (in the caller's transaction), to move what hangs on it: its files (drafts.ts).
     */
    take(
      id: number,
      keep?: (mail: OutgoingMail) => void,
    ): { mail: OutgoingMail } | { state: KeptState } | null {
      const row = byId.get(id);
      if (!row) return null;
      if (row.state !== 'failed' && row.state !== 'cancelled') return { state: row.state };
      const mail: OutgoingMail = {
        to: JSON.parse(row.to_json),
        cc: JSON.parse(row.cc_json),
        bcc: JSON.parse(row.bcc_json),
        subject: row.subject,
        body: row.body,
        inReplyTo: row.in_reply_to,
        fromAddress: row.from_address,
        forwardOf: row.forward_of,
      };
      keep?.(mail);
      drop.run(id);
      announce(id);
      return { mail };
    },
    get: (id: number): OutboxItem | null => {
      const r = byId.get(id);
      return r ? toItem(r) : null;
    },
    /** What is waiting, going out or failed, and what was sent in the last hour. */
    list: (): OutboxItem[] => recent.all(now() - 3_600_000).map(toItem),

    /** A restart during a send cannot tell whether it left: such messages become `failed`, never resent. */
    recoverAfterRestart(): void {
      unstick.run('Skimmer stopped while this message was being sent; check Sent before you retry.');
    },

    /**
     * Sends every message whose undo window has passed. Its files are read first (a forwarded one from where
     * the original is kept): one that cannot be read fails the message with a sentence naming it, before
     * anything is sent. Bcc recipients are in the envelope alone; the copy kept for Sent names them.
     */
    async sendDue(
      accounts: Pick<Accounts, 'login'>,
      transportFor: (login: AccountLogin) => Transporter = smtpTransport,
    ): Promise<number> {
      const writeBack = prepareWriteBack(db, now);
      const forwarded = prepareForwardedReader(db, { accounts, places: sources });
      const original = db.prepare<[number], { message_id: string; refs: string }>(
        'SELECT message_id, refs FROM messages WHERE id = ?',
      );
      let count = 0;
      for (const row of due.all(now())) {
        if (!changed(row.id, claim.run(row.id).changes)) continue; // cancelled in the meantime
        const login = await accounts.login(row.account_id);
        let attachments: Awaited<ReturnType<typeof forwarded.read>>;
        try {
          attachments = await forwarded.read(files.ofOutbox(row.id));
        } catch (e) {
          // Failed, never left `sending`: a message stuck there could not be retried until a restart.
          failed.run(
            e instanceof ForwardUnreadable ? e.message : 'A forwarded attachment could not be read.',
            row.id,
          );
          announce(row.id);
          if (!(e instanceof ForwardUnreadable)) throw e;
          continue;
        }
        const transport = transportFor(login);
        try {
          const answered = row.in_reply_to === null ? undefined : original.get(row.in_reply_to);
          const to: string[] = JSON.parse(row.to_json);
          const cc: string[] = JSON.parse(row.cc_json);
          const bcc: string[] = JSON.parse(row.bcc_json);
          const message = {
            // An alias is sent through the account's server as From; the envelope stays the login's.
            from:
              row.from_address === null
                ? login.user
                : { name: identityName.get(row.from_address) ?? null, address: row.from_address },
            to,
            cc,
            bcc,
            subject: row.subject,
            body: row.body,
            messageId: row.message_id,
            date: new Date(now()),
            inReplyTo: answered?.message_id ?? null,
            references: answered ? (JSON.parse(answered.refs) as string[]) : [],
            attachments,
          };
          const raw = await compose(message);
          // SECURITY: Bcc recipients must never be visible to the others: only the envelope names them.
          await transport.sendMail({ envelope: { from: login.user, to: [...to, ...cc, ...bcc] }, raw });
          const kept = bcc.length > 0 ? await compose({ ...message, keepBcc: true }) : raw;
          db.transaction(() => {
            sent.run(kept, now(), row.id);
            files.dropOfOutbox(row.id);
            writeBack.queueFor(row.account_id, { kind: 'append_sent', outboxId: row.id });
          })();
          announce(row.id);
          count += 1;
        } catch (e) {
          const failure = mailFailure(e, `the SMTP server ${login.smtp?.host ?? ''}`.trim()).message;
          // Refused at this send's login: it waits for the sign-in with the others instead of failing.
          if (needsSignIn.get(row.account_id) === 1) waitForSignIn.run(failure, row.id);
          else failed.run(failure, row.id);
          announce(row.id);
        } finally {
          transport.close();
        }
      }
      return count;
    },
  };
}

export type Outbox = ReturnType<typeof prepareOutbox>;
