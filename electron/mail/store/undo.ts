// Reversible writes to mail for the AI tools (DESIGN §7): each records, in the same transaction, one
// `undo_log` entry holding its inverse, and `undo(lastN)` applies the inverses of the newest open
// entries and marks them undone (`undoOne(id)` does so for exactly one entry). A write that changes
// nothing records nothing. Only this module writes `undo_log`, and `drafts` with drafts.ts (the user's own edits, sends and discards); moves, read flags and stars go through it so that every one can be undone.
// An undo applies only while every message is still as its action left it (in the folder it moved it to, with
// the flag or label it set, the draft it made still there): entries can be undone in any order, and one
// whose messages changed since would otherwise undo a later change too (an archive undone after a trash took
// the message out of Trash) or fail on a folder dropped meanwhile. Such an entry is refused with a sentence,
// changes nothing and leaves the list (`undo_log.dropped`, migration 0035).
import type { Db } from '../../db/open.ts';
import { nextId } from '../../db/retired-ids.ts';
import { MailError } from '../mail-error.ts';
import { newMessageId, prepareAccountLogin } from '../message-id.ts';
import { placeFolders } from './folder-places.ts';
import { prepareLabels, validLabelName } from './labels.ts';
import { prepareWriteBack } from './write-back.ts';

/** The closed set of inverses an undo entry can hold. */
export type Inverse =
  | { kind: 'unread'; items: { id: number; unread: number }[] }
  | { kind: 'starred'; items: { id: number; starred: number }[] }
  | { kind: 'folder'; items: FolderItem[]; dropFolders: number[] }
  | {
      kind: 'labels';
      attach: [number, number][];
      detach: [number, number][];
      dropLabels: number[];
      // Labels a rename or a delete took away, made again (same id, name, colour) before `attach` (issue 29 §4).
      restoreLabels?: GoneLabel[];
    }
  | { kind: 'draft'; dropDraft: number; account?: number | null; messageId?: string };

/**
 * A message moved: `folderId` the folder it came from, `to` the one the move put it in (absent in entries
 * recorded before migration 0035, which cannot be checked), `origin` its spam origin before the move (absent:
 * none), put back by the undo.
 */
type FolderItem = { id: number; folderId: number; to?: number; origin?: number };

/**
 * A label as it was before a rename or a delete took it away; `renamedTo`: it kept its id under this name (the
 * undo renames it back), absent: it was dropped (the undo makes it again).
 */
export type GoneLabel = { id: number; name: string; colour: string | null; renamedTo?: string };

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
  inbox: (n) => `Moved ${plural(n)} to the Inbox`,
};
const describeNotSpam = (n: number) => `Marked ${plural(n)} as not spam`;
// Move… to the Inbox (the picker's place), as against Not spam.
export const describeMoveToInbox = describeMove.inbox;

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
  const loginOf = prepareAccountLogin(db);
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
  // Off the list without being undone, with the sentence that said why.
  const markDropped = db.prepare<[number, string, number]>(
    'UPDATE undo_log SET undone_at = ?, dropped = ? WHERE id = ?',
  );
  const entryById = db.prepare<
    [number],
    {
      id: number;
      created_at: number;
      description: string;
      inverse_json: string;
      undone_at: number | null;
      dropped: string | null;
    }
  >('SELECT * FROM undo_log WHERE id = ?');
  const folderExists = db.prepare<[number]>('SELECT 1 FROM folders WHERE id = ?').pluck();
  // One column each, so checking a large undo reads no more of each row than it needs.
  const folderOf = db.prepare<[number]>('SELECT folder_id FROM messages WHERE id = ?').pluck();
  const unreadOf = db.prepare<[number]>('SELECT unread FROM messages WHERE id = ?').pluck();
  const starredOf = db.prepare<[number]>('SELECT starred FROM messages WHERE id = ?').pluck();
  const draftExists = db.prepare<[number]>('SELECT 1 FROM drafts WHERE id = ?').pluck();
  const labelExists = db.prepare<[number]>('SELECT 1 FROM labels WHERE id = ?').pluck();
  const hasLabel = db
    .prepare<[number, number]>('SELECT 1 FROM message_labels WHERE message_id = ? AND label_id = ?')
    .pluck();
  const isImap = db
    .prepare<[number]>('SELECT EXISTS (SELECT 1 FROM imap_accounts WHERE account_id = ?)')
    .pluck();
  // Where Spam took an imported message from (migration 0035), for Not spam to put it back.
  const spamOrigin = db
    .prepare<[number], number>('SELECT folder_id FROM spam_origins WHERE message = ?')
    .pluck();
  const setSpamOrigin = db.prepare<[number, number]>(
    // Only a folder still there: an undo puts back an origin whose folder may have gone since.
    'INSERT OR REPLACE INTO spam_origins (message, folder_id) SELECT ?, id FROM folders WHERE id = ?',
  );
  const dropSpamOrigin = db.prepare<[number]>('DELETE FROM spam_origins WHERE message = ?');
  // Where Trash took a message from (migration 0045), for Restore. Kept until it next goes to Trash and read
  // only while it is there, so an undone Restore (back into Trash) finds it again.
  const trashOrigin = db
    .prepare<[number], number>('SELECT folder_id FROM trash_origins WHERE message = ?')
    .pluck();
  const setTrashOrigin = db.prepare<[number, number]>(
    'INSERT OR REPLACE INTO trash_origins (message, folder_id) VALUES (?, ?)',
  );
  const restoreLabel = db.prepare<[number, string]>('INSERT OR IGNORE INTO labels (id, name) VALUES (?, ?)');
  const restoreColour = db.prepare<[number, string]>(
    'INSERT OR REPLACE INTO label_colours (label_id, colour) VALUES (?, ?)',
  );
  const colourOf = db.prepare<[number]>('SELECT colour FROM label_colours WHERE label_id = ?').pluck();
  const messagesWith = db
    .prepare<[number]>('SELECT message_id FROM message_labels WHERE label_id = ? ORDER BY message_id')
    .pluck();
  const dropLabel = db.prepare<[number]>('DELETE FROM labels WHERE id = ?');

  type MessageRow = NonNullable<ReturnType<typeof message.get>>;
  // "the message was", "the 3 messages were", "2 of the 3 messages were".
  const which = (some: number, all: number, one: string, many: string) =>
    all === 1
      ? `the message ${one}`
      : some === all
        ? `the ${all} messages ${many}`
        : `${some} of the ${all} messages ${some === 1 ? one : many}`;
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

  /**
   * Moves each message to its account's `target`, or to `own(row)` where that gives a folder (Not spam: the
   * folder Spam took it from). Spam (`marksSpam`) notes where an imported message was; any other move forgets
   * it, so an origin is only ever the folder the message left for the Spam it is still in. Each item records
   * where the message went and the origin it had, for the undo to check and put back.
   */
  function moveTo(
    rows: MessageRow[],
    target: (accountId: number) => number,
    opts: {
      marksSpam?: boolean;
      marksTrash?: boolean;
      own?: (row: MessageRow) => number | undefined;
    } = {},
  ): FolderItem[] {
    const items: FolderItem[] = [];
    // One look-up per account, not per message: a batch of thousands is mostly of one account.
    const targets = new Map<number, number>();
    const local = new Map<number, boolean>();
    const accountTarget = (accountId: number): number => {
      const folderId = targets.get(accountId) ?? target(accountId);
      targets.set(accountId, folderId);
      return folderId;
    };
    for (const row of rows) {
      const folderId = opts.own?.(row) ?? accountTarget(row.account_id);
      if (folderId === row.folder_id) continue;
      const origin = spamOrigin.get(row.id);
      setFolder.run(folderId, row.id);
      writeBack.queue(row.id, { kind: 'move', folderId, from: row.folder_id });
      const isLocal = local.get(row.account_id) ?? isImap.get(row.account_id) === 0;
      local.set(row.account_id, isLocal);
      // An IMAP account's message goes back to its INBOX (the server knows no origin), so only local mail's is kept.
      if (opts.marksSpam && isLocal) setSpamOrigin.run(row.id, row.folder_id);
      else if (origin !== undefined) dropSpamOrigin.run(row.id);
      if (opts.marksTrash) setTrashOrigin.run(row.id, row.folder_id);
      items.push({
        id: row.id,
        folderId: row.folder_id,
        to: folderId,
        ...(origin !== undefined ? { origin } : {}),
      });
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
      const items = moveTo(rows, target, { marksSpam: special === 'spam', marksTrash: special === 'trash' });
      if (items.length > 0) {
        log(describe(items.length), { kind: 'folder', items, dropFolders });
      }
      return { changed: items.length };
    },
  );

  // Not spam: an imported message goes back to the folder Spam took it from while that folder is there, else
  // (and an IMAP account's message always, as the server's Not spam does) to the account's Inbox.
  const notSpam = db.transaction((ids: readonly number[]) => {
    const rows = messages(ids);
    const dropFolders: number[] = [];
    const target = (accountId: number): number => {
      const found = serverInbox.get(accountId) ?? folderBySource.get(accountId, 'skimmer:inbox');
      if (found) return found.id;
      const id = Number(addFolder.run(accountId, specialNames.inbox, 'skimmer:inbox').lastInsertRowid);
      dropFolders.push(id);
      return id;
    };
    const items = moveTo(rows, target, { own: (row) => spamOrigin.get(row.id) });
    if (items.length > 0) log(describeNotSpam(items.length), { kind: 'folder', items, dropFolders });
    return { changed: items.length };
  });

  // Restore (issue 29 §7): out of Trash to the folder Trash took it from while that folder is there, else to the
  // account's Inbox (a local Inbox for imported mail). Undoable like any move.
  const restore = db.transaction((ids: readonly number[]) => {
    const rows = messages(ids);
    const dropFolders: number[] = [];
    const target = (accountId: number): number => {
      const found = serverInbox.get(accountId) ?? folderBySource.get(accountId, 'skimmer:inbox');
      if (found) return found.id;
      const id = Number(addFolder.run(accountId, specialNames.inbox, 'skimmer:inbox').lastInsertRowid);
      dropFolders.push(id);
      return id;
    };
    const own = (row: MessageRow) => {
      const origin = trashOrigin.get(row.id);
      // Only a folder of its own account that is still there (a cascade drops the row with the folder).
      return origin !== undefined && folderAccount.get(origin)?.account_id === row.account_id
        ? origin
        : undefined;
    };
    const items = moveTo(rows, target, { own });
    if (items.length > 0)
      log(`Restored ${plural(items.length)} from Trash`, { kind: 'folder', items, dropFolders });
    return { changed: items.length };
  });

  // Renaming a label is the messages taking the new name and leaving the old (on the server: the new keyword
  // added, the old removed, message by message); onto a name another label has, the two merge. The colour
  // goes with it. One Undo entry puts the old label back (same id, name and colour) on the same messages.
  const renameLabel = db.transaction((id: number, newName: string) => {
    const old = goneLabel(id);
    const name = validLabelName(newName);
    if (name === old.name) return { id, merged: false, changed: 0 };
    const moved = messagesWith.all(id) as number[];
    const clash = labels.findNoCase(name);
    const description = `Renamed the label ${old.name} to ${name}`;
    if (clash === null || clash === id) {
      // Its own id keeps its colour and its place; a case-only rename is one of these.
      labels.setName(id, name);
      queueNames(moved, [name], [old.name]);
      log(description, {
        kind: 'labels',
        attach: [],
        detach: [],
        dropLabels: [],
        restoreLabels: [{ ...old, renamedTo: name }],
      });
      return { id, merged: false, changed: moved.length };
    }
    const attached = moved.filter((m) => labels.attach(m, clash)).map((m): [number, number] => [m, clash]);
    const detached = moved.map((m): [number, number] => [m, id]);
    queueLabels(attached, detached);
    dropLabel.run(id);
    log(description, {
      kind: 'labels',
      attach: detached,
      detach: attached,
      dropLabels: [],
      restoreLabels: [old],
    });
    return { id: clash, merged: true, changed: moved.length };
  });

  // Deleting a label takes it off every message (on the server: the keyword removed) and out of the list; the
  // Undo puts it back with its colour on the same messages.
  const deleteLabel = db.transaction((id: number) => {
    const old = goneLabel(id);
    const detached = (messagesWith.all(id) as number[]).map((m): [number, number] => [m, id]);
    queueLabels([], detached);
    dropLabel.run(id);
    log(`Deleted the label ${old.name}`, {
      kind: 'labels',
      attach: detached,
      detach: [],
      dropLabels: [],
      restoreLabels: [old],
    });
    return { changed: detached.length };
  });

  function goneLabel(id: number): GoneLabel {
    const name = labels.nameOf(id);
    if (name === '') throw new MailError('not_found', 'That label no longer exists.');
    return { id, name, colour: (colourOf.get(id) as string | undefined) ?? null };
  }

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
    const messageId = newMessageId(
      `skimmer-draft.${id}`,
      account === null ? null : (loginOf(account) ?? null),
      now(),
    );
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

  // The same names on and off each message (a rename: the new keyword added, the old removed).
  function queueNames(ids: readonly number[], add: string[], remove: string[]): void {
    for (const m of ids) writeBack.queue(m, { kind: 'keywords', add, remove });
  }

  // A label a rename or a delete took away: named back, or made again with its colour.
  function restoreGone(label: GoneLabel): void {
    if (label.renamedTo !== undefined) {
      labels.setName(label.id, label.name);
      queueNames(messagesWith.all(label.id) as number[], [label.name], [label.renamedTo]);
      return;
    }
    restoreLabel.run(label.id, label.name);
    if (label.colour !== null) restoreColour.run(label.id, label.colour);
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
          if (item.origin !== undefined) setSpamOrigin.run(item.id, item.origin);
          else dropSpamOrigin.run(item.id);
        }
        for (const id of inverse.dropFolders) dropEmptyFolder.run(id, id);
        return;
      case 'labels': {
        for (const gone of inverse.restoreLabels ?? []) restoreGone(gone);
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

  // Why the inverse can no longer be applied: some message is not as the action left it, or what it would
  // put back is gone. null: it can be. Read before anything is applied, so a refusal changes nothing.
  function changedSince(inverse: Inverse): string | null {
    if (inverse.kind === 'draft') {
      return draftExists.get(inverse.dropDraft) ? null : 'the draft was sent or discarded since';
    }
    // Each message's one column the action changed (null: the message is gone), read once.
    const column = inverse.kind === 'unread' ? unreadOf : inverse.kind === 'starred' ? starredOf : folderOf;
    const ids =
      inverse.kind === 'labels'
        ? [...new Set([...inverse.attach, ...inverse.detach].map(([m]) => m))]
        : inverse.items.map((i) => i.id);
    const current = new Map(ids.map((id) => [id, (column.get(id) as number | undefined) ?? null]));
    const gone = ids.filter((id) => current.get(id) === null).length;
    if (gone > 0) return `${which(gone, ids.length, 'is', 'are')} no longer in the mailbox`;
    const changed = (n: number, what: string) =>
      n === 0 ? null : `${which(n, ids.length, 'was', 'were')} ${what} since`;
    switch (inverse.kind) {
      case 'unread': {
        // The action set each flag to the other value.
        const other = inverse.items.filter((i) => current.get(i.id) !== 1 - i.unread);
        return changed(other.length, `marked ${current.get(other[0]?.id ?? 0) === 1 ? 'unread' : 'read'}`);
      }
      case 'starred': {
        const other = inverse.items.filter((i) => current.get(i.id) !== 1 - i.starred);
        return changed(other.length, current.get(other[0]?.id ?? 0) === 1 ? 'starred' : 'unstarred');
      }
      case 'folder': {
        if (inverse.items.some((i) => i.to === undefined)) {
          return 'it was recorded by an earlier Skimmer, which did not note where it left the messages';
        }
        const moved = changed(inverse.items.filter((i) => current.get(i.id) !== i.to).length, 'moved');
        if (moved !== null) return moved;
        // A folder dropped since (an IMAP folder the server no longer lists) cannot take its mail back.
        return inverse.items.every((i) => folderExists.get(i.folderId))
          ? null
          : `the folder ${ids.length === 1 ? 'it was moved out of' : 'they were moved out of'} is no longer there`;
      }
      case 'labels': {
        // `detach` holds what the action attached, `attach` what it took off; a label the action took away is
        // still gone (or still under the name it gave it), and no other label has taken its name since.
        const away = new Set((inverse.restoreLabels ?? []).map((g) => g.id));
        const kept =
          (inverse.restoreLabels ?? []).every((g) => {
            const clash = labels.findNoCase(g.name);
            const current = labels.nameOf(g.id);
            return (
              (clash === null || clash === g.id) &&
              (g.renamedTo === undefined ? current === '' : current === g.renamedTo)
            );
          }) &&
          inverse.detach.every(([m, l]) => hasLabel.get(m, l)) &&
          inverse.attach.every(([m, l]) => (away.has(l) || labelExists.get(l)) && !hasLabel.get(m, l));
        return kept ? null : 'the labels were changed since';
      }
    }
  }

  // Refused undos say so after their transaction: the entry's drop is kept, what was applied is not.
  class Refused extends Error {
    readonly entryId: number;
    constructor(entryId: number, sentence: string) {
      super(sentence);
      this.entryId = entryId;
    }
  }
  const refusal = (entry: { id: number; description: string }, why: string) =>
    new Refused(entry.id, `Cannot undo “${entry.description}”: ${why}; nothing was undone.`);
  const dropEntry = db.transaction((r: Refused) => void markDropped.run(now(), r.message, r.entryId));
  function refusedOr<T>(run: () => T): T {
    try {
      return run();
    } catch (e) {
      if (!(e instanceof Refused)) throw e;
      dropEntry(e);
      throw new MailError('wrong_state', e.message);
    }
  }

  function undoEntry(entry: { id: number; created_at: number; description: string; inverse_json: string }) {
    const inverse = JSON.parse(entry.inverse_json) as Inverse;
    const why = changedSince(inverse);
    if (why !== null) throw refusal(entry, why);
    apply(inverse);
    markUndone.run(now(), entry.id);
    return { id: entry.id, createdAt: entry.created_at, description: entry.description };
  }

  /**
   * Undoes the newest `lastN` entries not yet undone, newest first; returns what was undone. One that can no
   * longer be undone (its messages changed since) refuses the whole request with its sentence, and leaves the
   * list; the others stay as they were, to be undone again.
   */
  const undo = (lastN: number): UndoEntry[] =>
    refusedOr(db.transaction(() => open.all(lastN).map(undoEntry)));

  /**
   * Undoes exactly the entry `id`, whatever was done after it (the page's Undo bar names the action it shows,
   * so an unrelated later change, like the read flag of an opened thread, cannot take its place), as long as
   * its messages are still as it left them.
   */
  const undoOne = (id: number): UndoEntry =>
    refusedOr(
      db.transaction((): UndoEntry => {
        const entry = entryById.get(id);
        if (!entry) throw new MailError('not_found', 'There is no such action to undo.');
        // Asked again (another page still showing it): the sentence it was dropped with, never applied later.
        if (entry.dropped !== null) throw new MailError('wrong_state', entry.dropped);
        if (entry.undone_at !== null) throw new MailError('wrong_state', 'That action was already undone.');
        return undoEntry(entry);
      }),
    );

  /** The newest entries that can still be undone, newest first (for the UI's Undo). */
  const undoable = (limit: number): UndoEntry[] =>
    open.all(limit).map((e) => ({ id: e.id, createdAt: e.created_at, description: e.description }));

  return {
    markRead,
    star,
    moveToSpecial,
    notSpam,
    moveToFolder,
    moveToFolderId,
    restore,
    label,
    renameLabel,
    deleteLabel,
    createDraft,
    undo,
    undoOne,
    undoable,
    labels,
  };
}
