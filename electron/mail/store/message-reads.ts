// Small reads of one message, or of a thread's or a folder's message ids, for the folders above the mail
// (ai/, mcp/, the bridge). The mail store owns its tables (DESIGN §1, electron/db/table-owners.ts), so those
// folders read through these functions instead of naming a table; each statement is prepared once here.
import type { Db } from '../../db/open.ts';

/** What a line about one message shows: its subject, its sender and the folder it is in. */
export type MessageHeadline = {
  id: number;
  subject: string;
  fromName: string;
  fromAddr: string;
  fromText: string;
  folder: string;
};

/** Where a message lives: its folder's name and source, and on an IMAP server its path and special use. */
export type MessagePlace = { name: string; source: string; specialUse: string | null; path: string | null };

export function prepareMessageReads(db: Db) {
  const headline = db.prepare<
    [number],
    { id: number; subject: string; from_name: string; from_addr: string; from_text: string; folder: string }
  >(
    `SELECT m.id, m.subject, m.from_name, m.from_addr, m.from_text, f.name AS folder
       FROM messages m JOIN folders f ON f.id = m.folder_id WHERE m.id = ?`,
  );
  const contentHash = db.prepare<[number]>('SELECT content_hash FROM messages WHERE id = ?').pluck();
  const threadHashes = db.prepare<[number], { id: number; content_hash: string }>(
    'SELECT id, content_hash FROM messages WHERE thread_id = ? ORDER BY date DESC, id DESC',
  );
  const threadShape = db.prepare<[number], { n: number; top: number }>(
    'SELECT count(*) AS n, coalesce(max(id), 0) AS top FROM messages WHERE thread_id = ?',
  );
  const allIds = db.prepare<[]>('SELECT id FROM messages ORDER BY date DESC, id DESC').pluck();
  const folderIds = db
    .prepare<[number]>('SELECT id FROM messages WHERE folder_id = ? ORDER BY date DESC, id DESC')
    .pluck();
  const textLength = db
    .prepare<[number]>('SELECT length(body_text) + length(subject) FROM messages WHERE id = ?')
    .pluck();
  const newestId = db.prepare<[]>('SELECT coalesce(max(id), 0) FROM messages').pluck();
  const idsAfter = db
    .prepare<[number]>('SELECT id FROM messages WHERE id > ? ORDER BY date DESC, id DESC')
    .pluck();
  const recentFrom = db.prepare<
    [string, number, string, number],
    { id: number; message_id: string; body_text: string }
  >(
    `SELECT id, message_id, body_text FROM messages
       WHERE lower(from_addr) IN (SELECT value FROM json_each(?)) AND thread_id != ?
         AND folder_id NOT IN (SELECT value FROM json_each(?))
       ORDER BY date DESC, id DESC LIMIT ?`,
  );
  const hasLabel = db
    .prepare<[number, string]>(
      `SELECT 1 FROM message_labels ml JOIN labels l ON l.id = ml.label_id
        WHERE ml.message_id = ? AND l.name = ?`,
    )
    .pluck();
  const unread = db.prepare<[number]>('SELECT unread FROM messages WHERE id = ?').pluck();
  const place = db.prepare<
    [number],
    { name: string; source: string; special_use: string | null; path: string | null }
  >(
    `SELECT f.name, f.source, i.special_use, i.path FROM messages m JOIN folders f ON f.id = m.folder_id
       LEFT JOIN imap_folders i ON i.folder_id = f.id WHERE m.id = ?`,
  );
  const imapFolder = db.prepare<[number], { account_id: number; path: string | null }>(
    'SELECT f.account_id, i.path FROM folders f LEFT JOIN imap_folders i ON i.folder_id = f.id WHERE f.id = ?',
  );

  return {
    headline(id: number): MessageHeadline | undefined {
      const row = headline.get(id);
      return row
        ? {
            id: row.id,
            subject: row.subject,
            fromName: row.from_name,
            fromAddr: row.from_addr,
            fromText: row.from_text,
            folder: row.folder,
          }
        : undefined;
    },
    contentHash: (id: number) => contentHash.get(id) as string | undefined,
    /** A thread's messages with their content hashes, newest first. */
    threadHashes: (threadId: number) =>
      threadHashes.all(threadId).map((r) => ({ id: r.id, contentHash: r.content_hash })),
    /** A thread's number of messages and its newest id, without reading the messages. */
    threadShape(threadId: number): { count: number; newestId: number } {
      const row = threadShape.get(threadId);
      return { count: row?.n ?? 0, newestId: row?.top ?? 0 };
    },
    /** Every message's id, newest first. */
    allIds: () => allIds.all() as number[],
    /** A folder's message ids, newest first. */
    folderIds: (folderId: number) => folderIds.all(folderId) as number[],
    /** The characters of a message's subject and text together (0 for a message not there). */
    textLength: (id: number) => (textLength.get(id) as number | undefined) ?? 0,
    /** The largest message id so far (ids only grow), 0 in an empty mailbox. */
    newestId: () => newestId.get() as number,
    /** The messages stored after `id`, newest first. */
    idsAfter: (id: number) => idsAfter.all(id) as number[],
    /** Recent mail from any of `addresses` outside one thread and some folders, newest first. */
    recentFrom(
      addresses: readonly string[],
      exceptThread: number,
      exceptFolders: readonly number[],
      limit: number,
    ) {
      return recentFrom
        .all(JSON.stringify(addresses), exceptThread, JSON.stringify(exceptFolders), limit)
        .map((r) => ({ id: r.id, messageId: r.message_id, bodyText: r.body_text }));
    },
    hasLabel: (id: number, label: string) => hasLabel.get(id, label) !== undefined,
    /** Whether the message is unread; undefined when it is not there. */
    unread: (id: number) => {
      const value = unread.get(id) as number | undefined;
      return value === undefined ? undefined : value === 1;
    },
    place(id: number): MessagePlace | undefined {
      const row = place.get(id);
      return row
        ? { name: row.name, source: row.source, specialUse: row.special_use, path: row.path }
        : undefined;
    },
    /** An IMAP folder's account and path on the server; an imported folder has no path. */
    imapFolder(folderId: number): { accountId: number; path: string | null } | undefined {
      const row = imapFolder.get(folderId);
      return row ? { accountId: row.account_id, path: row.path } : undefined;
    },
  };
}
