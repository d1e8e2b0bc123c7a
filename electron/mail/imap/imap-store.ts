// What a sync writes (issue 5): IMAP folders with their UIDVALIDITY, HIGHESTMODSEQ and UIDNEXT, and locations
// (folder, uid) → message. Owns `imap_folders` and `imap_locations`; messages themselves are written through
// store.ts like imported mail. A message is kept while it has a location in its account; one that lost its
// last location is an orphan until the end of the sync (it may reappear elsewhere: a move), then deleted.
import type { Db } from '../../db/open.ts';
import { nextId } from '../../db/retired-ids.ts';

/** What the server said of a folder when its last completed sync opened it. */
export type FolderState = {
  uidValidity: number | null;
  highestModseq: number | null;
  uidNext: number | null;
};
export type Location = { message: number; flags: string[] };

const seen = (flags: readonly string[]) => flags.includes('\\Seen');
// The server's \Flagged is the star (DESIGN §11): a sync sets `messages.starred` from it, as `unread` from \Seen.
const flagged = (flags: readonly string[]) => (flags.includes('\\Flagged') ? 1 : 0);

export function prepareImapStore(db: Db, accountId: number, now: () => number = Date.now) {
  const findFolder = db.prepare<[number, string], { id: number }>(
    'SELECT id FROM folders WHERE account_id = ? AND source = ?',
  );
  const addFolder = db.prepare<[number, string, string]>(
    `INSERT INTO folders (id, account_id, name, source) VALUES (${nextId('folders')}, ?, ?, ?)`,
  );
  const rename = db.prepare<[string, number, string]>(
    'UPDATE folders SET name = ? WHERE id = ? AND name IS NOT ?',
  );
  const upsertImapFolder = db.prepare<[number, string, string | null]>(
    `INSERT INTO imap_folders (folder_id, path, special_use) VALUES (?, ?, ?)
     ON CONFLICT (folder_id) DO UPDATE SET path = excluded.path, special_use = excluded.special_use`,
  );
  const state = db.prepare<
    [number],
    { uid_validity: number | null; highest_modseq: number | null; uid_next: number | null }
  >('SELECT uid_validity, highest_modseq, uid_next FROM imap_folders WHERE folder_id = ?');
  const setState = db.prepare<[number | null, number | null, number | null, number, number]>(
    'UPDATE imap_folders SET uid_validity = ?, highest_modseq = ?, uid_next = ?, synced_at = ? WHERE folder_id = ?',
  );
  const locationsOf = db.prepare<[number], { uid: number; message: number; flags_json: string }>(
    'SELECT uid, message, flags_json FROM imap_locations WHERE folder_id = ?',
  );
  const locationCount = db
    .prepare<[number], number>('SELECT count(*) FROM imap_locations WHERE folder_id = ?')
    .pluck();
  // The account's messages, each once: after dropOrphans every one has a location. (Counted on the folder index:
  // 1 ms for 20,000 messages, where the distinct messages of the locations took 12 ms each sync round.)
  const messageCount = db
    .prepare<[number], number>(
      'SELECT count(*) FROM messages m JOIN folders f ON f.id = m.folder_id WHERE f.account_id = ?',
    )
    .pluck();
  const locationAt = db.prepare<[number, number], { message: number; flags_json: string }>(
    'SELECT message, flags_json FROM imap_locations WHERE folder_id = ? AND uid = ?',
  );
  const dropLocations = db.prepare<[number]>('DELETE FROM imap_locations WHERE folder_id = ?');
  const dropLocation = db.prepare<[number, number], { message: number }>(
    'DELETE FROM imap_locations WHERE folder_id = ? AND uid = ? RETURNING message',
  );
  const addLocation = db.prepare<[number, number, number, string]>(
    `INSERT INTO imap_locations (folder_id, uid, message, flags_json) VALUES (?, ?, ?, ?)
     ON CONFLICT (folder_id, uid) DO UPDATE SET message = excluded.message, flags_json = excluded.flags_json`,
  );
  const setLocationFlags = db.prepare<[string, number, number]>(
    'UPDATE imap_locations SET flags_json = ? WHERE folder_id = ? AND uid = ?',
  );
  const setUnread = db.prepare<[number, number]>('UPDATE messages SET unread = ? WHERE id = ?');
  const setStarred = db.prepare<[number, number]>('UPDATE messages SET starred = ? WHERE id = ?');
  const messageFolder = db.prepare<[number], { folder_id: number }>(
    'SELECT folder_id FROM messages WHERE id = ?',
  );
  // All Mail (synced on Gmail only) comes last: a message that leaves INBOX but keeps a label shows in it.
  const otherLocation = db.prepare<[number], { folder_id: number }>(
    `SELECT l.folder_id FROM imap_locations l LEFT JOIN imap_folders i ON i.folder_id = l.folder_id
     WHERE l.message = ? ORDER BY i.special_use IS '\\All', l.folder_id LIMIT 1`,
  );
  const hasLocationIn = db
    .prepare<[number, number]>('SELECT 1 FROM imap_locations WHERE message = ? AND folder_id = ?')
    .pluck();
  const moveMessage = db.prepare<[number, number]>('UPDATE messages SET folder_id = ? WHERE id = ?');
  // Every message of the account by Message-ID and size, read once: a first sync of a big mailbox asks
  // for each of its messages, and a lookup here costs a fraction of a query (bench/imap-sync.ts).
  const known = db.prepare<[number], { id: number; message_id: string; size: number }>(
    `SELECT m.id, m.message_id, m.size FROM messages m JOIN folders f ON f.id = m.folder_id
     WHERE f.account_id = ? ORDER BY m.id DESC`,
  );
  // Read on first use: a sync that finds nothing new never needs it.
  let knownMap: Map<string, number> | null = null;
  const byIdAndSize = (): Map<string, number> => {
    if (knownMap) return knownMap;
    knownMap = new Map();
    for (const r of known.iterate(accountId)) knownMap.set(`${r.size} ${r.message_id}`, r.id);
    return knownMap;
  };
  const orphans = db.prepare<[number], { id: number; thread_id: number }>(
    `SELECT m.id, m.thread_id FROM messages m JOIN folders f ON f.id = m.folder_id
     WHERE f.account_id = ? AND NOT EXISTS (SELECT 1 FROM imap_locations l WHERE l.message = m.id)`,
  );
  const deleteMessage = db.prepare<[number]>('DELETE FROM messages WHERE id = ?');
  const recount = db.prepare<[number, number]>(
    'UPDATE threads SET message_count = (SELECT count(*) FROM messages WHERE thread_id = ?) WHERE id = ?',
  );
  const dropEmptyThread = db.prepare<[number]>('DELETE FROM threads WHERE id = ? AND message_count = 0');
  const foldersOfAccount = db.prepare<[number], { folder_id: number; path: string }>(
    'SELECT i.folder_id, i.path FROM imap_folders i JOIN folders f ON f.id = i.folder_id WHERE f.account_id = ?',
  );
  const uidsIn = db.prepare<[number]>('SELECT uid FROM imap_locations WHERE folder_id = ?').pluck();
  // Only an empty folder goes: a message moved into it here whose move the server refused still shows in it,
  // with its error and Retry (messages cascade with their folder, so a non-empty one must stay).
  const deleteEmptyFolder = db.prepare<[number, number]>(
    'DELETE FROM folders WHERE id = ? AND NOT EXISTS (SELECT 1 FROM messages WHERE folder_id = ?)',
  );

  return {
    /**
     * The folder for a mailbox path, created on first sight; `name` is what the user sees, renamed when the
     * sync names it otherwise (Gmail's "[Gmail]/Sent Mail", stored so before, is "Sent Mail").
     */
    folder(path: string, name: string, specialUse: string | null): number {
      const source = `imap:${path}`;
      const found = findFolder.get(accountId, source)?.id;
      if (found !== undefined) rename.run(name, found, name);
      const id = found ?? Number(addFolder.run(accountId, name, source).lastInsertRowid);
      upsertImapFolder.run(id, path, specialUse);
      return id;
    },

    state(folderId: number): FolderState {
      const s = state.get(folderId);
      return {
        uidValidity: s?.uid_validity ?? null,
        highestModseq: s?.highest_modseq ?? null,
        uidNext: s?.uid_next ?? null,
      };
    },

    /** Only at the end of a folder's sync: what is stored then describes a sync that completed. */
    setState(folderId: number, s: FolderState): void {
      setState.run(s.uidValidity, s.highestModseq, s.uidNext, now(), folderId);
    },

    locations(folderId: number): Map<number, Location> {
      return new Map(
        locationsOf
          .all(folderId)
          .map((r) => [r.uid, { message: r.message, flags: JSON.parse(r.flags_json) }]),
      );
    },

    /** How many uids of the folder are stored (the index answers it; `locations` would read every row). */
    locationCount(folderId: number): number {
      return locationCount.get(folderId) as number;
    },
    /** The account's messages, each once; call it after dropOrphans. */
    messageCount(): number {
      return messageCount.get(accountId) as number;
    },

    /** One location, for the few uids a QRESYNC open reports (reading them all would cost more). */
    location(folderId: number, uid: number): Location | null {
      const r = locationAt.get(folderId, uid);
      return r ? { message: r.message, flags: JSON.parse(r.flags_json) } : null;
    },

    /** A UIDVALIDITY change: every uid of the folder is void; the messages wait to be matched again. */
    forgetFolder(folderId: number): void {
      dropLocations.run(folderId);
    },

    /** The uid is gone from the server folder: the message stays if it is elsewhere, else is an orphan. */
    removeLocation(folderId: number, uid: number): void {
      const removed = dropLocation.get(folderId, uid);
      if (!removed) return;
      if (messageFolder.get(removed.message)?.folder_id !== folderId) return;
      const other = otherLocation.get(removed.message);
      if (other) moveMessage.run(other.folder_id, removed.message);
    },

    /** A stored message of this account with this Message-ID and size (a moved or copied message). */
    match(messageId: string, size: number): number | null {
      return messageId ? (byIdAndSize().get(`${size} ${messageId}`) ?? null) : null;
    },

    /** Every Message-ID and size `match` knows, as `size messageId` (for the fetcher thread: imap-fetcher.ts). */
    knownKeys(): string[] {
      return [...byIdAndSize().keys()];
    },

    /** Makes a message stored during this sync findable by `match` (a copy of it in a later folder). */
    remember(messageId: string, size: number, message: number): void {
      if (messageId) byIdAndSize().set(`${size} ${messageId}`, message);
    },

    /** Points (folder, uid) at a message just stored in that folder. */
    linkNew(folderId: number, uid: number, message: number, flags: readonly string[]): void {
      addLocation.run(folderId, uid, message, JSON.stringify(flags));
      if (seen(flags)) setUnread.run(0, message);
      if (flagged(flags)) setStarred.run(1, message);
    },

    /** Points (folder, uid) at a message; a message with no other location moves to this folder. */
    link(folderId: number, uid: number, message: number, flags: readonly string[]): void {
      const hadHome = otherLocation.get(message);
      addLocation.run(folderId, uid, message, JSON.stringify(flags));
      if (!hadHome || hasLocationIn.get(message, messageFolder.get(message)?.folder_id ?? -1) === undefined) {
        moveMessage.run(folderId, message);
      }
      setUnread.run(seen(flags) ? 0 : 1, message);
      setStarred.run(flagged(flags), message);
    },

    setFlags(folderId: number, uid: number, message: number, flags: readonly string[]): void {
      setLocationFlags.run(JSON.stringify(flags), folderId, uid);
      setUnread.run(seen(flags) ? 0 : 1, message);
      setStarred.run(flagged(flags), message);
    },

    /** The account's folders whose server path is not among `listed` (deleted or renamed on the server). */
    foldersNotIn(listed: ReadonlySet<string>): number[] {
      return foldersOfAccount
        .all(accountId)
        .filter((f) => !listed.has(f.path))
        .map((f) => f.folder_id);
    },

    /** A folder the server no longer has: its messages move to another of their folders or become orphans. */
    forgetVanishedFolder(folderId: number): void {
      for (const uid of uidsIn.all(folderId) as number[]) this.removeLocation(folderId, uid);
    },

    /** After dropOrphans: the folder row goes, unless a message of this computer's is still in it. */
    deleteFolder(folderId: number): void {
      deleteEmptyFolder.run(folderId, folderId);
    },

    /** Deletes the messages that ended the sync with no location; returns how many. */
    dropOrphans(): number {
      const gone = orphans.all(accountId);
      const threads = new Set<number>();
      for (const o of gone) {
        deleteMessage.run(o.id);
        threads.add(o.thread_id);
      }
      for (const t of threads) {
        recount.run(t, t);
        dropEmptyThread.run(t);
      }
      return gone.length;
    },
  };
}
