// Reversible writes to mail for the AI tools (DESIGN §7): each records, in the same transaction, one
// `undo_log` entry holding its inverse, and `undo(lastN)` applies the inverses of the newest open
// entries and marks them undone (`undoOne(id)` does so for exactly one entry). A write that changes
// nothing records nothing. Only this module writes `undo_log`, and `drafts` with drafts.ts (the user's own edits, sends and discards); moves, read flags and stars go through it so that every one can be undone.
import type { Db } from '../../db/open.ts';
import { nextId } from '../../db/retired-ids.ts';
import { prepareWriteBack } from '../imap/write-back.ts';
import { MailError } from '../mail-error.ts';
import { placeFolders } from './folder-places.ts';
import { prepareLabels } from './labels.ts';

/** The closed set of inverses an undo entry can hold. */
export type Inverse =
  | { kind: 'unread'; items: { id: number; unread: number }[] }
  | { kind: 'starred'; items: { id: number; starred: number }[] }
  | { kind: 'folder'; items: { id: number; folderId: number }[]; dropFolders: number[] }
  | { kind: 'labels'; attach: [number, number][]; detach: [number, number][]; dropLabels: number[] }
  | { kind: 'draft'; dropDraft: number; account?: number | null; messageId?: string };

export type UndoEntry = { id: number; createdAt: number; description: string };

// Where Archive, Trash, Spam and Not spam (back to the Inbox) take mail (DESIGN §11).
export type SpecialFolder = 'archive' | 'trash' | 'spam' | 'inbox';
const specialNames: Record<SpecialFolder, string> = {
  archive: 'Archive',
  trash: 'Trash',
  spam: 'Spam',
  inbox: 'Inbox',
};
const specialUses: Record<SpecialFolder, string | null> = {
  archive: '\\Archive',
  trash: '\\Trash',
  spam: '\\Junk',
  inbox: null,
};
const plural = (n: number) => `${n} message${n === 1 ? '' : 's'}`;
const describeMove: Record<SpecialFolder, (n: number) => string> = {
  archive: (n) => `Archived ${plural(n)}`,
  trash: (n) => `Moved to Trash ${plural(n)}`,
  spam: (n) => `Marked ${plural(n)} as spam`,
  inbox: (n) => `Moved ${plural(n)} back to the Inbox (not spam)`,
};
// Move… to the Inbox (the picker's place), as against Not spam.
export const describeMoveToInbox = (n: number) => `Moved ${plural(n)} to the Inbox`;

export type NewDraft = {
  to: string[];
  cc: string[];
  subject: string;
  body: string;
  inReplyTo: number | null;
};

export function prepareMailActions(db: Db, now: () => number = Date.now) {
  const labels = prepareLabels(db);
  // Every change to a message that lives on a server is queued for it, in the same transaction.
  const writeBack = prepareWriteBack(db, now);
  const message = db.prepare<
    [number],
    { id: number; folder_id: number; unread: number; starred: number; account_id: number }
  >(
    `SELECT m.id, m.folder_id, m.unread, m.starred, f.account_id
       FROM messages m JOIN folders f ON f.id = m.folder_id WHERE m.id = ?`,
  );
  const setUnread = db.prepare<[number, number]>('UPDATE messages SET unread = ? WHERE id = ?');
  const setStarred = db.prepare<[number, number]>('UPDATE messages SET starred = ? WHERE id = ?');
  const setFolder = db.prepare<[number, number]>('UPDATE messages SET folder_id = ? WHERE id = ?');
  const folderBySource = db.prepare<[number, string], { id: number }>(
    'SELECT id FROM folders WHERE account_id = ? AND source = ?',
  );
  // An IMAP account's own Archive or Trash (RFC 6154 special use), where its server keeps them.
  const folderByUse = db.prepare<[number, string], { id: number }>(
    `SELECT f.id FROM folders f JOIN imap_folders i ON i.folder_id = f.id
     WHERE f.account_id = ? AND i.special_use = ? ORDER BY f.id LIMIT 1`,
  );
  // An IMAP account's INBOX (RFC 3501 §5.1: the name is case-insensitive), where "Not spam" puts mail back.
  const serverInbox = db.prepare<[number], { id: number }>(
    `SELECT f.id FROM folders f JOIN imap_folders i ON i.folder_id = f.id
     WHERE f.account_id = ? AND upper(i.path) = 'INBOX' ORDER BY f.id LIMIT 1`,
  );
  const folderAccount = db.prepare<[number], { account_id: number; name: string }>(
    'SELECT account_id, name FROM folders WHERE id = ?',
  );
  const folderByName = db.prepare<[number, string], { id: number }>(
    'SELECT id FROM folders WHERE account_id = ? AND name = ? COLLATE NOCASE ORDER BY id LIMIT 1',
  );
  const folderNames = db.prepare<[number], { name: string }>(
    'SELECT name FROM folders WHERE account_id = ? ORDER BY name COLLATE NOCASE',
  );
  const addFolder = db.prepare<[number, string, string]>(
    `INSERT INTO folders (id, account_id, name, source) VALUES (${nextId('folders')}, ?, ?, ?)`,
  );
  const dropEmptyFolder = db.prepare<[number, number]>(
    'DELETE FROM folders WHERE id = ? AND NOT EXISTS (SELECT 1 FROM messages WHERE folder_id = ?)',
  );
  const addDraft = db.prepare(
    // Past every id ever given (migration 0022): a queued APPEND names its draft by id.
    `INSERT INTO drafts (id, to_json, cc_json, subject, body, in_reply_to, created_at, updated_at)
     VALUES (${nextId('drafts')}, @to, @cc, @subject, @body, @inReplyTo, @at, @at)`,
  );
  // The copy in the Drafts folder, so that the user's next save replaces it (drafts.ts keepOnServer).
  const setServerCopy = db.prepare<[number, string, number]>(
    'UPDATE drafts SET server_account = ?, server_message_id = ? WHERE id = ?',
  );
  const dropDraft = db.prepare<[number]>('DELETE FROM drafts WHERE id = ?');
  const serverCopy = db.prepare<
    [number],
    { server_account: number | null; server_message_id: string | null }
  >('SELECT server_account, server_message_id FROM drafts WHERE id = ? AND server_message_id IS NOT NULL');
  const record = db.prepare<[number, string, string]>(
    'INSERT INTO undo_log (created_at, description, inverse_json) VALUES (?, ?, ?)',
  );
  const open = db.prepare<
    [number],
    { id: number; created_at: number; description: string; inverse_json: string }
  >('SELECT * FROM undo_log WHERE undone_at IS NULL ORDER BY id DESC LIMIT ?');
  const markUndone = db.prepare<[number, number]>('UPDATE undo_log SET undone_at = ? WHERE id = ?');
  const entryById = db.prepare<
    [number],
    { id: number; created_at: number; description: string; inverse_json: string; undone_at: number | null }
  >('SELECT * FROM undo_log WHERE id = ?');

  type MessageRow = NonNullable<ReturnType<typeof message.get>>;
  function messages(ids: readonly number[]): MessageRow[] {
    const rows: MessageRow[] = [];
    for (const id of new Set(ids)) {
      const row = message.get(id);
      if (!row) throw new MailError('not_found', `There is no message with id ${id}.`);
      rows.push(row);
    }
    return rows;
  }

  function log(description: string, inverse: Inverse): number {
    return Number(record.run(now(), description, JSON.stringify(inverse)).lastInsertRowid);
  }

  function moveTo(rows: MessageRow[], target: (accountId: number) => number) {
    const items: { id: number; folderId: number }[] = [];
    // One look-up per account, not per message: a batch of thousands is mostly of one account.
    const targets = new Map<number, number>();
    for (const row of rows) {
      const folderId = targets.get(row.account_id) ?? target(row.account_id);
      targets.set(row.account_id, folderId);
      if (folderId === row.folder_id) continue;
      setFolder.run(folderId, row.id);
      writeBack.queue(row.id, { kind: 'move', folderId, from: row.folder_id });
      items.push({ id: row.id, folderId: row.folder_id });
    }
    return items;
  }

  const markRead = db.transaction((ids: readonly number[], read: boolean) => {
    const unread = read ? 0 : 1;
    const items = messages(ids)
      .filter((row) => row.unread !== unread)
      .map((row) => ({ id: row.id, unread: row.unread }));
    for (const item of items) {
      setUnread.run(unread, item.id);
      writeBack.queue(item.id, { kind: 'seen', seen: read });
    }
    if (items.length > 0)
      log(`Marked ${plural(items.length)} ${read ? 'read' : 'unread'}`, { kind: 'unread', items });
    return { changed: items.length };
  });

  // A star is \Flagged on the server (DESIGN §11), queued like a read flag.
  const star = db.transaction((ids: readonly number[], starred: boolean) => {
    const value = starred ? 1 : 0;
    const items = messages(ids)
      .filter((row) => row.starred !== value)
      .map((row) => ({ id: row.id, starred: row.starred }));
    for (const item of items) {
      setStarred.run(value, item.id);
      writeBack.queue(item.id, { kind: 'flagged', flagged: starred });
    }
    if (items.length > 0)
      log(`${starred ? 'Starred' : 'Unstarred'} ${plural(items.length)}`, { kind: 'starred', items });
    return { changed: items.length };
  });

  // A folder of the account that is Spam by its usual name (an imported Junk.mbox, a server's "Junk" without
  // a special use), so Spam does not make a second one beside it.
  const spamByName = (accountId: number): { id: number } | undefined => {
    for (const name of placeFolders.spam.names) {
      const found = folderByName.get(accountId, name);
      if (found) return found;
    }
    return undefined;
  };

  const moveToSpecial = db.transaction(
    (
      ids: readonly number[],
      special: SpecialFolder,
      describe: (n: number) => string = describeMove[special],
    ) => {
      const rows = messages(ids);
      const dropFolders: number[] = [];
      const source = `skimmer:${special}`;
      const use = specialUses[special];
      const target = (accountId: number): number => {
        // On Gmail archiving is leaving INBOX for All Mail (\All), which is synced there only.
        const found =
          (special === 'archive' ? folderByUse.get(accountId, '\\All') : undefined) ??
          (use === null ? serverInbox.get(accountId) : folderByUse.get(accountId, use)) ??
          folderBySource.get(accountId, source) ??
          (special === 'spam' ? spamByName(accountId) : undefined);
        if (found) return found.id;
        // Dropped again by the Undo if nothing else moved in meanwhile.
        const id = Number(addFolder.run(accountId, specialNames[special], source).lastInsertRowid);
        dropFolders.push(id);
        return id;
      };
      const items = moveTo(rows, target);
      if (items.length > 0) {
        log(describe(items.length), { kind: 'folder', items, dropFolders });
      }
      return { changed: items.length };
    },
  );

  // Move… with a folder the user picked: its own account's messages go there, another account's to that
  // account's folder of the same name (a message cannot leave its account's server by a move).
  const moveToFolderId = db.transaction((ids: readonly number[], folderId: number) => {
    const folder = folderAccount.get(folderId);
    if (!folder) throw new MailError('not_found', 'That folder is not in the mailbox.');
    const rows = messages(ids);
    const target = (accountId: number): number => {
      if (accountId === folder.account_id) return folderId;
      const found = folderByName.get(accountId, folder.name);
      if (found) return found.id;
      throw new MailError(
        'no_folder',
        `Some of these messages belong to an account without a folder named "${folder.name}".`,
      );
    };
    const items = moveTo(rows, target);
    if (items.length > 0) {
      log(`Moved ${plural(items.length)} to ${folder.name}`, { kind: 'folder', items, dropFolders: [] });
    }
    return { changed: items.length };
  });

  const moveToFolder = db.transaction((ids: readonly number[], folderName: string) => {
    const rows = messages(ids);
    const target = (accountId: number): number => {
      const found = folderByName.get(accountId, folderName);
      if (found) return found.id;
      const names = folderNames.all(accountId).map((f) => f.name);
      throw new MailError(
        'no_folder',
        `There is no folder named "${folderName}". Folders: ${names.join(', ')}.`,
      );
    };
    const items = moveTo(rows, target);
    if (items.length > 0) {
      log(`Moved ${plural(items.length)} to ${folderName}`, { kind: 'folder', items, dropFolders: [] });
    }
    return { changed: items.length };
  });

  const label = db.transaction(
    (ids: readonly number[], add: readonly string[], remove: readonly string[]) => {
      const rows = messages(ids);
      const attached: [number, number][] = [];
      const detached: [number, number][] = [];
      const dropLabels: number[] = [];
      for (const name of new Set(add)) {
        const { id: labelId, created } = labels.ensure(name);
        if (created) dropLabels.push(labelId);
        for (const row of rows) if (labels.attach(row.id, labelId)) attached.push([row.id, labelId]);
      }
      for (const name of new Set(remove)) {
        const labelId = labels.find(name);
        if (labelId === null) continue;
        for (const row of rows) if (labels.detach(row.id, labelId)) detached.push([row.id, labelId]);
      }
      queueLabels(attached, detached);
      if (attached.length + detached.length > 0) {
        const parts = [
          ...(add.length > 0 ? [`added ${add.join(', ')}`] : []),
          ...(remove.length > 0 ? [`removed ${remove.join(', ')}`] : []),
        ];
        log(`Labels on ${plural(rows.length)}: ${parts.join('; ')}`, {
          kind: 'labels',
          attach: detached,
          detach: attached,
          dropLabels,
        });
      }
      return { added: attached.length, removed: detached.length };
    },
  );

  const createDraft = db.transaction((draft: NewDraft) => {
    if (draft.inReplyTo !== null) messages([draft.inReplyTo]);
    const id = Number(
      addDraft.run({
        to: JSON.stringify(draft.to),
        cc: JSON.stringify(draft.cc),
        subject: draft.subject,
        body: draft.body,
        inReplyTo: draft.inReplyTo,
        at: now(),
      }).lastInsertRowid,
    );
    // A reply is saved to the Drafts folder of the account it answers.
    const account = draft.inReplyTo === null ? null : writeBack.accountOf(draft.inReplyTo);
    // The server copy is found again (to drop it on undo) by this Message-ID.
    const messageId = `<skimmer-draft.${id}.${now()}@skimmer.invalid>`;
    if (account !== null) {
      writeBack.queueFor(account, { kind: 'append_draft', draftId: id, messageId });
      setServerCopy.run(account, messageId, id);
    }
    log(`Created the draft "${draft.subject}"`, { kind: 'draft', dropDraft: id, account, messageId });
    return { id };
  });

  // Label changes as keyword changes, one op per message.
  function queueLabels(attached: readonly [number, number][], detached: readonly [number, number][]): void {
    const byMessage = new Map<number, { add: string[]; remove: string[] }>();
    const entry = (m: number) => byMessage.get(m) ?? byMessage.set(m, { add: [], remove: [] }).get(m);
    for (const [m, l] of attached) entry(m)?.add.push(labels.nameOf(l));
    for (const [m, l] of detached) entry(m)?.remove.push(labels.nameOf(l));
    for (const [m, change] of byMessage) writeBack.queue(m, { kind: 'keywords', ...change });
  }

  // An undo is a change like any other: the server gets it too.
  function apply(inverse: Inverse): void {
    switch (inverse.kind) {
      case 'unread':
        for (const item of inverse.items) {
          setUnread.run(item.unread, item.id);
          writeBack.queue(item.id, { kind: 'seen', seen: item.unread === 0 });
        }
        return;
      case 'starred':
        for (const item of inverse.items) {
          setStarred.run(item.starred, item.id);
          writeBack.queue(item.id, { kind: 'flagged', flagged: item.starred === 1 });
        }
        return;
      case 'folder':
        for (const item of inverse.items) {
          const from = message.get(item.id)?.folder_id;
          setFolder.run(item.folderId, item.id);
          writeBack.queue(item.id, { kind: 'move', folderId: item.folderId, from });
        }
        for (const id of inverse.dropFolders) dropEmptyFolder.run(id, id);
        return;
      case 'labels': {
        const attached = inverse.attach.filter(([m, l]) => labels.attach(m, l));
        const detached = inverse.detach.filter(([m, l]) => labels.detach(m, l));
        queueLabels(attached, detached);
        for (const id of inverse.dropLabels) labels.dropIfUnused(id);
        return;
      }
      case 'draft': {
        // The server copy as it is now: a save by the user since has replaced the one made with the draft.
        const copy = serverCopy.get(inverse.dropDraft);
        const account = copy ? copy.server_account : inverse.account;
        const messageId = copy ? copy.server_message_id : inverse.messageId;
        dropDraft.run(inverse.dropDraft);
        if (account != null && messageId) writeBack.queueFor(account, { kind: 'drop_draft', messageId });
        return;
      }
    }
  }

  /** Undoes the newest `lastN` entries not yet undone, newest first; returns what was undone. */
  const undo = db.transaction((lastN: number): UndoEntry[] => {
    const done: UndoEntry[] = [];
    for (const entry of open.all(lastN)) {
      apply(JSON.parse(entry.inverse_json) as Inverse);
      markUndone.run(now(), entry.id);
      done.push({ id: entry.id, createdAt: entry.created_at, description: entry.description });
    }
    return done;
  });

  /**
   * Undoes exactly the entry `id`, whatever was done after it (the page's Undo bar names the action it shows,
   * so an unrelated later change, like the read flag of an opened thread, cannot take its place).
   */
  const undoOne = db.transaction((id: number): UndoEntry => {
    const entry = entryById.get(id);
    if (!entry) throw new MailError('not_found', 'There is no such action to undo.');
    if (entry.undone_at !== null) throw new MailError('wrong_state', 'That action was already undone.');
    apply(JSON.parse(entry.inverse_json) as Inverse);
    markUndone.run(now(), entry.id);
    return { id: entry.id, createdAt: entry.created_at, description: entry.description };
  });

  /** The newest entries that can still be undone, newest first (for the UI's Undo). */
  const undoable = (limit: number): UndoEntry[] =>
    open.all(limit).map((e) => ({ id: e.id, createdAt: e.created_at, description: e.description }));

  return {
    markRead,
    star,
    moveToSpecial,
    moveToFolder,
    moveToFolderId,
    label,
    createDraft,
    undo,
    undoOne,
    undoable,
    labels,
  };
}
