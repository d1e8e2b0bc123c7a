// The write-back queue (issue 5). Owns `mail_ops`. Changes to mail are applied locally at once (undo.ts,
// queries.ts) and, when the message lives in an IMAP account, queued here in the same transaction; a sync
// replays the queue in order (imap-replay.ts). Messages of the local account queue nothing.
import type { Db } from '../../db/open.ts';

export type OpKind =
  | 'seen'
  | 'flagged'
  | 'move'
  | 'keywords'
  | 'append_draft'
  | 'drop_draft'
  | 'append_sent'
  | 'expunge'
  | 'folder_create'
  | 'folder_rename'
  | 'folder_delete';
export type Op =
  | { kind: 'seen'; seen: boolean }
  // A star (DESIGN §11): \Flagged on the server.
  | { kind: 'flagged'; flagged: boolean }
  // `from`: the folder it was in, whose mailbox it leaves (on Gmail: the label that goes). Older ops lack it.
  | { kind: 'move'; folderId: number; from?: number }
  | { kind: 'keywords'; add: string[]; remove: string[] }
  | { kind: 'append_draft'; draftId: number; messageId: string }
  | { kind: 'drop_draft'; messageId: string }
  | { kind: 'append_sent'; outboxId: number }
  // Delete forever (issue 29 §7): the copies by mailbox and uid, as the message row is gone when it runs.
  | { kind: 'expunge'; copies: { path: string; uid: number }[] }
  // Folders (issue 29 §7): a folder made here gets its mailbox; a rename gives its mailbox the new last name.
  | { kind: 'folder_create'; folderId: number }
  | { kind: 'folder_rename'; folderId: number; name: string }
  | { kind: 'folder_delete'; path: string };
export type QueuedOp = Op & {
  id: number;
  accountId: number;
  message: number | null;
  state: 'pending' | 'failed';
  attempts: number;
  lastError: string | null;
};

type Row = {
  id: number;
  account_id: number;
  message: number | null;
  kind: OpKind;
  payload_json: string;
  state: 'pending' | 'failed';
  attempts: number;
  last_error: string | null;
};
const toOp = (r: Row): QueuedOp =>
  ({
    ...(JSON.parse(r.payload_json) as object),
    kind: r.kind,
    id: r.id,
    accountId: r.account_id,
    message: r.message,
    state: r.state,
    attempts: r.attempts,
    lastError: r.last_error,
  }) as QueuedOp;

export function prepareWriteBack(db: Db, now: () => number = Date.now) {
  // The IMAP account a message lives in: only messages with a server location have one.
  const accountOf = db.prepare<[number], { account_id: number }>(
    `SELECT f.account_id FROM imap_locations l JOIN folders f ON f.id = l.folder_id
     WHERE l.message = ? LIMIT 1`,
  );
  const insert = db.prepare<[number, number | null, OpKind, string, number]>(
    'INSERT INTO mail_ops (account_id, message, kind, payload_json, created_at) VALUES (?, ?, ?, ?, ?)',
  );
  const pendingOf = db.prepare<[number], Row>(
    "SELECT * FROM mail_ops WHERE account_id = ? AND state = 'pending' ORDER BY id",
  );
  const failedOf = db.prepare<[number], Row>(
    "SELECT * FROM mail_ops WHERE message = ? AND state = 'failed' ORDER BY id",
  );
  const allFailed = db.prepare<[], Row>("SELECT * FROM mail_ops WHERE state = 'failed' ORDER BY id");
  const drop = db.prepare<[number]>('DELETE FROM mail_ops WHERE id = ?');
  const fail = db.prepare<[string, number]>(
    "UPDATE mail_ops SET state = 'failed', attempts = attempts + 1, last_error = ? WHERE id = ?",
  );
  const tried = db.prepare<[string, number]>(
    'UPDATE mail_ops SET attempts = attempts + 1, last_error = ? WHERE id = ?',
  );
  const retry = db.prepare<[number]>(
    "UPDATE mail_ops SET state = 'pending' WHERE message = ? AND state = 'failed'",
  );

  const queue = (message: number, op: Op): void => {
    const account = accountOf.get(message);
    if (!account) return;
    const { kind, ...payload } = op;
    insert.run(account.account_id, message, kind, JSON.stringify(payload), now());
  };

  return {
    /** Queues `op` for the message's server, if it has one. Call inside the transaction that made the change. */
    queue,
    /** Queues an op that belongs to an account rather than a message (a draft). */
    queueFor(accountId: number, op: Op): void {
      const { kind, ...payload } = op;
      insert.run(accountId, null, kind, JSON.stringify(payload), now());
    },
    /** The account of a message that lives on a server, or null. */
    accountOf: (message: number): number | null => accountOf.get(message)?.account_id ?? null,
    pending: (accountId: number): QueuedOp[] => pendingOf.all(accountId).map(toOp),
    failed: (message?: number): QueuedOp[] =>
      (message === undefined ? allFailed.all() : failedOf.all(message)).map(toOp),
    done: (id: number): void => void drop.run(id),
    /** The server refused it: kept, with the sentence, until the user retries. */
    refused: (id: number, message: string): void => void fail.run(message, id),
    /** It could not reach the server: kept pending for the next sync. */
    unreached: (id: number, message: string): void => void tried.run(message, id),
    retry: (message: number): number => retry.run(message).changes,
  };
}

export type WriteBack = ReturnType<typeof prepareWriteBack>;
