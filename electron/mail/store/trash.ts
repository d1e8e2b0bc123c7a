// Delete forever and Empty Trash (issue 29 §7): messages in a Trash folder leave the mailbox for good. Not
// undoable, so no undo_log entry; an IMAP account's copies are queued for the server (STORE \Deleted and UID
// EXPUNGE, write-back.ts `expunge`) by mailbox and uid, as the message row is gone by the time the op runs.
// Imported mail has no server: it is only taken out of the database.
import type { Db } from '../../db/open.ts';
import { MailError } from '../mail-error.ts';
import { folderPlace } from './folder-places.ts';
import { prepareWriteBack } from './write-back.ts';

type Row = {
  id: number;
  thread_id: number;
  account_id: number;
  name: string;
  source: string;
  special_use: string | null;
  path: string | null;
};

export function prepareTrash(db: Db, now: () => number = Date.now) {
  const writeBack = prepareWriteBack(db, now);
  const message = db.prepare<[number], Row>(
    `SELECT m.id, m.thread_id, f.account_id, f.name, f.source, i.special_use, i.path
       FROM messages m JOIN folders f ON f.id = m.folder_id LEFT JOIN imap_folders i ON i.folder_id = f.id
      WHERE m.id = ?`,
  );
  // The server's copies in a Trash mailbox; a copy elsewhere (a second label on Gmail) is not this delete's.
  const copies = db.prepare<
    [number],
    { path: string; uid: number; special_use: string | null; name: string }
  >(
    `SELECT i.path, l.uid, i.special_use, f.name FROM imap_locations l
       JOIN imap_folders i ON i.folder_id = l.folder_id JOIN folders f ON f.id = l.folder_id
      WHERE l.message = ? ORDER BY i.path, l.uid`,
  );
  const drop = db.prepare<[number]>('DELETE FROM messages WHERE id = ?');
  const recount = db.prepare<[number, number]>(
    'UPDATE threads SET message_count = (SELECT count(*) FROM messages WHERE thread_id = ?) WHERE id = ?',
  );
  const dropEmptyThread = db.prepare<[number]>('DELETE FROM threads WHERE id = ? AND message_count = 0');

  const inTrash = (f: { name: string; source?: string; special_use: string | null; path: string | null }) =>
    folderPlace({ name: f.name, source: f.source ?? '', specialUse: f.special_use, path: f.path }) ===
    'trash';

  /**
   * Deletes these messages for good. SECURITY: only messages in a Trash folder: a request naming any other is
   * refused whole, so a bug or a forged request cannot erase mail that was never put in the Trash.
   */
  const deleteForever = db.transaction((ids: readonly number[]) => {
    const rows: Row[] = [];
    for (const id of new Set(ids)) {
      const row = message.get(id);
      if (!row) throw new MailError('not_found', `There is no message with id ${id}.`);
      if (!inTrash(row))
        throw new MailError('wrong_state', 'Only messages in the Trash can be deleted forever.');
      rows.push(row);
    }
    const byAccount = new Map<number, { path: string; uid: number }[]>();
    for (const row of rows) {
      const list = byAccount.get(row.account_id) ?? [];
      for (const c of copies.all(row.id)) if (inTrash(c)) list.push({ path: c.path, uid: c.uid });
      byAccount.set(row.account_id, list);
      drop.run(row.id);
    }
    for (const [account, list] of byAccount)
      if (list.length > 0) writeBack.queueFor(account, { kind: 'expunge', copies: list });
    for (const thread of new Set(rows.map((r) => r.thread_id))) {
      recount.run(thread, thread);
      dropEmptyThread.run(thread);
    }
    return { changed: rows.length, threads: new Set(rows.map((r) => r.thread_id)).size };
  });

  return { deleteForever };
}
