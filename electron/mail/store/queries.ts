// Reads of the mail tables for the bridge and the CLI: folders, pages of threads, one thread, read flags.
import type {
  Address,
  Attachment,
  Folder,
  MailView,
  MessageView,
  MessageWarning,
  ThreadSummary,
} from '../../../shared/contract/index.ts';
import { inView } from '../../../shared/mail-views.ts';
import type { Db } from '../../db/open.ts';
import { prepareWarnings } from '../warnings/warning-store.ts';
import { folderPlace } from './folder-places.ts';
import { snippetChars, snippetOf } from './snippet.ts';
import { prepareWriteBack } from './write-back.ts';

export function prepareQueries(db: Db) {
  const folders = db.prepare(
    `SELECT f.id, f.name, f.source, i.special_use, i.path, f.account_id, a.kind AS account_kind,
        a.name AS account_name,
        (SELECT count(*) FROM messages WHERE folder_id = f.id) AS total,
        (SELECT count(*) FROM messages WHERE folder_id = f.id AND unread = 1) AS unread
       FROM folders f JOIN accounts a ON a.id = f.account_id
       LEFT JOIN imap_folders i ON i.folder_id = f.id ORDER BY f.name COLLATE NOCASE`,
  );
  // A view lists the threads with a message in one of its folders (json_each of their ids).
  const viewThreads = db.prepare<[string, number, number], { id: number }>(
    `SELECT t.id FROM threads t
      WHERE t.message_count > 0
        AND EXISTS (SELECT 1 FROM messages m
                     WHERE m.thread_id = t.id AND m.folder_id IN (SELECT value FROM json_each(?)))
      ORDER BY t.last_date DESC, t.id DESC LIMIT ? OFFSET ?`,
  );
  // Starred: the threads with a starred message in one of the view's folders (not Trash or Spam). `starred` is
  // the last column of a message row, behind the bodies, so reading it costs a pass over the table: the starred
  // threads are found in one pass, which gives the count, and only the page of them is sorted by date
  // (bench/views.ts: half the time of a list query and a count query, each a pass).
  const starredIds = db
    .prepare<[string], number>(
      `SELECT DISTINCT thread_id FROM messages
        WHERE starred = 1 AND folder_id IN (SELECT value FROM json_each(?))`,
    )
    .pluck();
  const threadsByDate = db.prepare<[string, number, number], { id: number }>(
    `SELECT t.id FROM threads t WHERE t.id IN (SELECT value FROM json_each(?))
      ORDER BY t.last_date DESC, t.id DESC LIMIT ? OFFSET ?`,
  );
  const viewCount = db
    .prepare<[string]>(
      'SELECT count(DISTINCT thread_id) FROM messages WHERE folder_id IN (SELECT value FROM json_each(?))',
    )
    .pluck();
  const folderThreads = db.prepare<[number, number, number], { id: number }>(
    // Walks threads newest first (threads_by_date) and keeps those with a message in the folder, so a
    // page deep in a large folder costs index lookups, not a sort of every thread.
    `SELECT t.id FROM threads t
      WHERE t.message_count > 0
        AND EXISTS (SELECT 1 FROM messages m WHERE m.folder_id = ? AND m.thread_id = t.id)
      ORDER BY t.last_date DESC, t.id DESC LIMIT ? OFFSET ?`,
  );
  const folderCount = db
    .prepare('SELECT count(DISTINCT thread_id) AS n FROM messages WHERE folder_id = ?')
    .pluck();
  const summary = db.prepare<[number], SummaryRow>(
    `SELECT t.id, t.subject, t.last_date, t.message_count,
        (SELECT coalesce(sum(unread), 0) FROM messages WHERE thread_id = t.id) AS unread,
        (SELECT max(has_attachments) FROM messages WHERE thread_id = t.id) AS has_attachments,
        (SELECT max(starred) FROM messages WHERE thread_id = t.id) AS starred,
        (SELECT json_group_array(who) FROM (
           SELECT CASE WHEN from_name <> '' THEN from_name ELSE from_addr END AS who
             FROM messages WHERE thread_id = t.id GROUP BY who ORDER BY min(date) LIMIT 4)) AS participants,
        (SELECT substr(body_text, 1, ${snippetChars * 2}) FROM messages WHERE thread_id = t.id
           ORDER BY date DESC, id DESC LIMIT 1) AS snippet
       FROM threads t WHERE t.id = ?`,
  );
  const thread = db.prepare<[number], { id: number; subject: string }>(
    'SELECT id, subject FROM threads WHERE id = ?',
  );
  const messages = db.prepare<[number], MessageRow>(
    'SELECT * FROM messages WHERE thread_id = ? ORDER BY date, id',
  );
  const writeBack = prepareWriteBack(db);
  // A message stored before the warnings existed is checked the first time it is read (warning-store.ts).
  const warnings = prepareWarnings(db);
  const warningsOf = (id: number) => warnings.ensure(id) ?? [];
  const messageById = db.prepare<[number], MessageRow>('SELECT * FROM messages WHERE id = ?');
  const setRead = db.prepare<[{ unread: number; id: number }]>(
    'UPDATE messages SET unread = @unread WHERE id = @id AND unread <> @unread',
  );
  const count = db.prepare('SELECT count(*) FROM messages').pluck();

  const allFolders = (): Folder[] =>
    (folders.all() as FolderRow[]).map((r) => ({
      id: r.id,
      name: r.name,
      source: r.source,
      place: folderPlace({ name: r.name, source: r.source, specialUse: r.special_use, path: r.path }),
      account: r.account_kind === 'imap' ? { id: r.account_id, name: r.account_name } : null,
      total: r.total,
      unread: r.unread,
    }));

  // The folders a view beside the folders lists, across every account and import (shared/mail-views.ts).
  const viewFolders = (view: MailView): number[] =>
    allFolders().flatMap((f) => (inView(view, f.place) ? [f.id] : []));

  const summaries = (ids: readonly number[]): ThreadSummary[] => {
    const out: ThreadSummary[] = [];
    for (const id of ids) {
      const row = summary.get(id);
      if (row) out.push(toSummary(row));
    }
    return out;
  };

  return {
    folders: allFolders,
    viewFolders,
    /** The list rows of these threads, in this order; a thread that is gone is left out. */
    summaries,

    // A folder's threads, or (folderId null) a view's, across every account and import: the folders of its
    // places (shared/mail-views.ts, folder-places.ts), and for Starred only the starred conversations there.
    threads(folderId: number | null, offset: number, limit: number, view: MailView = 'all') {
      let ids: { id: number }[];
      let total: number;
      if (folderId === null) {
        const inIt = JSON.stringify(viewFolders(view));
        if (view === 'starred') {
          const starred = starredIds.all(inIt);
          ids = threadsByDate.all(JSON.stringify(starred), limit, offset);
          total = starred.length;
        } else {
          ids = viewThreads.all(inIt, limit, offset);
          total = viewCount.get(inIt) as number;
        }
      } else {
        ids = folderThreads.all(folderId, limit, offset);
        total = folderCount.get(folderId) as number;
      }
      return { total, threads: summaries(ids.map((r) => r.id)) };
    },

    thread(threadId: number): { id: number; subject: string; messages: MessageView[] } | null {
      const t = thread.get(threadId);
      if (!t) return null;
      const syncError = (id: number) => writeBack.failed(id)[0]?.lastError ?? null;
      return {
        id: t.id,
        subject: t.subject,
        messages: messages.all(threadId).map((r) => toView(r, warningsOf(r.id), syncError(r.id))),
      };
    },

    message(id: number): MessageView | null {
      const row = messageById.get(id);
      return row ? toView(row, warningsOf(row.id)) : null;
    },

    markRead: db.transaction((ids: number[], read: boolean): number => {
      let changed = 0;
      for (const id of ids) {
        const n = setRead.run({ unread: read ? 0 : 1, id }).changes;
        if (n > 0) writeBack.queue(id, { kind: 'seen', seen: read });
        changed += n;
      }
      return changed;
    }),

    messageCount: (): number => count.get() as number,
  };
}

type FolderRow = {
  id: number;
  name: string;
  source: string;
  special_use: string | null;
  path: string | null;
  account_id: number;
  account_kind: string;
  account_name: string;
  total: number;
  unread: number;
};

type SummaryRow = {
  id: number;
  subject: string;
  last_date: number;
  message_count: number;
  unread: number;
  has_attachments: number;
  starred: number;
  participants: string;
  snippet: string | null;
};

type MessageRow = {
  id: number;
  folder_id: number;
  thread_id: number;
  message_id: string;
  subject: string;
  from_name: string;
  from_addr: string;
  to_json: string;
  cc_json: string;
  date: number;
  body_text: string;
  body_html: string | null;
  attachments_json: string;
  unread: number;
  starred: number;
};

function toSummary(r: SummaryRow): ThreadSummary {
  return {
    id: r.id,
    subject: r.subject,
    participants: JSON.parse(r.participants) as string[],
    lastDate: r.last_date,
    count: r.message_count,
    unread: r.unread,
    snippet: snippetOf(r.snippet ?? ''),
    hasAttachments: r.has_attachments === 1,
    starred: r.starred === 1,
  };
}

function toView(r: MessageRow, warnings: MessageWarning[], syncError: string | null = null): MessageView {
  return {
    id: r.id,
    messageId: r.message_id,
    threadId: r.thread_id,
    folderId: r.folder_id,
    subject: r.subject,
    from: { name: r.from_name, address: r.from_addr },
    to: JSON.parse(r.to_json) as Address[],
    cc: JSON.parse(r.cc_json) as Address[],
    date: r.date,
    text: r.body_text,
    html: r.body_html,
    attachments: JSON.parse(r.attachments_json) as Attachment[],
    unread: r.unread === 1,
    starred: r.starred === 1,
    syncError,
    warnings,
  };
}
