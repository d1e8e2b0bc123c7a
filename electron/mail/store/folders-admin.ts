// Folders the person makes, renames and deletes (issue 29 §7). Changed here at once; an IMAP account's are
// queued for its server (write-back.ts: CREATE, RENAME, DELETE, replayed in order with the account's other
// changes, imap-replay.ts), imported mail's stay on this computer. Refusals are MailErrors with a sentence.
// The careful choice for a folder with mail in it: deleting it is refused until its mail is moved out, so no
// delete of a folder ever deletes a message (a server's DELETE would expunge its mail with it).
import { randomUUID } from 'node:crypto';
import type { Db } from '../../db/open.ts';
import { nextId } from '../../db/retired-ids.ts';
import { MailError } from '../mail-error.ts';
import { folderPlace, placeFolders } from './folder-places.ts';
import { prepareWriteBack } from './write-back.ts';

const maxFolderName = 100;

// Names a folder may not take: INBOX, and the special places' usual names, which would be taken for them.
const reserved = new Set(
  ['inbox', ...Object.values(placeFolders).flatMap((p) => p.names)].map((n) => n.toLowerCase()),
);

/**
 * A folder name as the person typed it, trimmed, or a MailError saying why not. SECURITY: one level only:
 * the usual hierarchy delimiters (/ . \) and IMAP's LIST wildcards (* %) are refused, so a name cannot
 * reach into or make another folder's path on the server.
 */
function validFolderName(raw: string): string {
  const name = raw.trim();
  if (name === '') throw new MailError('invalid', 'A folder needs a name.');
  if (name.length > maxFolderName)
    throw new MailError('invalid', `A folder name can be at most ${maxFolderName} characters.`);
  if (/[/.\\*%"]/u.test(name) || [...name].some((ch) => ch.charCodeAt(0) < 0x20 || ch.charCodeAt(0) === 0x7f))
    throw new MailError('invalid', 'A folder name cannot contain / . \\ * % or quotes.');
  if (reserved.has(name.toLowerCase()))
    throw new MailError('invalid', `“${name}” is the name of a special folder; choose another.`);
  return name;
}

type FolderRow = {
  id: number;
  account_id: number;
  name: string;
  source: string;
  kind: 'local' | 'imap';
  special_use: string | null;
  path: string | null;
  messages: number;
  // The server's copies Skimmer knows in its mailbox: mail moved out here whose move has not reached it yet.
  copies: number;
};

export function prepareFoldersAdmin(db: Db, now: () => number = Date.now) {
  const writeBack = prepareWriteBack(db, now);
  const account = db.prepare<[number], { id: number; kind: 'local' | 'imap' }>(
    'SELECT id, kind FROM accounts WHERE id = ?',
  );
  const localAccount = db.prepare<[], { id: number; kind: 'local' }>(
    "SELECT id, kind FROM accounts WHERE kind = 'local' ORDER BY id LIMIT 1",
  );
  const folder = db.prepare<[number], FolderRow>(
    `SELECT f.id, f.account_id, f.name, f.source, a.kind, i.special_use, i.path,
            (SELECT count(*) FROM messages WHERE folder_id = f.id) AS messages,
            (SELECT count(*) FROM imap_locations WHERE folder_id = f.id) AS copies
       FROM folders f JOIN accounts a ON a.id = f.account_id LEFT JOIN imap_folders i ON i.folder_id = f.id
      WHERE f.id = ?`,
  );
  const clash = db.prepare<[number, string, number], { id: number }>(
    'SELECT id FROM folders WHERE account_id = ? AND name = ? COLLATE NOCASE AND id != ? LIMIT 1',
  );
  const add = db.prepare<[number, string, string]>(
    `INSERT INTO folders (id, account_id, name, source) VALUES (${nextId('folders')}, ?, ?, ?)`,
  );
  const setName = db.prepare<[string, number]>('UPDATE folders SET name = ? WHERE id = ?');
  const drop = db.prepare<[number]>('DELETE FROM folders WHERE id = ?');

  const mustBeOwn = (id: number): FolderRow => {
    const f = folder.get(id);
    if (!f) throw new MailError('not_found', 'That folder is not in the mailbox.');
    if (folderPlace({ name: f.name, source: f.source, specialUse: f.special_use, path: f.path }) !== null)
      throw new MailError('wrong_state', `“${f.name}” is a special folder; it cannot be renamed or deleted.`);
    return f;
  };
  const mustBeFree = (accountId: number, name: string, except = 0) => {
    if (clash.get(accountId, name, except))
      throw new MailError('invalid', `There is already a folder named “${name}”.`);
  };

  return {
    /** Makes a folder in the account (null: on this computer, for imported mail). */
    create: db.transaction((accountId: number | null, rawName: string): { id: number } => {
      const name = validFolderName(rawName);
      const owner = accountId === null ? localAccount.get() : account.get(accountId);
      if (!owner) throw new MailError('not_found', 'That account is not set up here.');
      mustBeFree(owner.id, name);
      // A server's folder is found by `imap:PATH` once its mailbox is made (imap-replay.ts pathFor).
      const id = Number(add.run(owner.id, name, `skimmer:folder:${randomUUID()}`).lastInsertRowid);
      if (owner.kind === 'imap') writeBack.queueFor(owner.id, { kind: 'folder_create', folderId: id });
      return { id };
    }),

    rename: db.transaction((id: number, rawName: string): { changed: boolean } => {
      const f = mustBeOwn(id);
      const name = validFolderName(rawName);
      if (name === f.name) return { changed: false };
      mustBeFree(f.account_id, name, id);
      setName.run(name, id);
      if (f.kind === 'imap') writeBack.queueFor(f.account_id, { kind: 'folder_rename', folderId: id, name });
      return { changed: true };
    }),

    /** Deletes an empty folder; one with mail in it is refused with a sentence saying what to do. */
    remove: db.transaction((id: number): { ok: true } => {
      const f = mustBeOwn(id);
      if (f.messages > 0) {
        const n = f.messages === 1 ? '1 message' : `${f.messages.toLocaleString('en')} messages`;
        throw new MailError(
          'wrong_state',
          `“${f.name}” still has ${n}. Move them to another folder (or to the Trash) first, then delete the folder.`,
        );
      }
      // The folder's row holds where its mail is on the server until a queued move out has run there.
      if (f.copies > 0)
        throw new MailError(
          'wrong_state',
          `The mail moved out of “${f.name}” has not reached the server yet; delete the folder after the next sync.`,
        );
      drop.run(id);
      // Never made on the server (its create still queued): that op finds no folder and does nothing.
      if (f.kind === 'imap' && f.path !== null)
        writeBack.queueFor(f.account_id, { kind: 'folder_delete', path: f.path });
      return { ok: true as const };
    }),
  };
}
