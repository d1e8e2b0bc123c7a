// Writes to the mail tables (folders, messages, threads via threads.ts, warnings via warning-store.ts,
// contacts, import_failures). Nobody else writes to them; every batch of writes ends with indexStored() (the search index). Dedupe is by
// Message-ID plus content hash: the same file imported twice adds nothing, while two different
// messages that share a Message-ID (it happens) are both kept.
import type { Db } from '../../db/open.ts';
import { nextId } from '../../db/retired-ids.ts';
import type { ParsedMessage } from '../import/parse.ts';
import type { FolderRef } from '../import/sources.ts';
import { prepareUnsubscribeStore } from '../unsubscribe/unsubscribe-store.ts';
import { prepareWarnings } from '../warnings/warning-store.ts';
import { prepareThreading } from './threads.ts';

export type StoreResult = 'imported' | 'duplicate';

export function prepareStore(db: Db) {
  const localAccount = (
    db.prepare("SELECT id FROM accounts WHERE kind = 'local' ORDER BY id LIMIT 1").get() as { id: number }
  ).id;
  const findFolder = db.prepare<[number, string], { id: number }>(
    'SELECT id FROM folders WHERE account_id = ? AND source = ?',
  );
  const addFolder = db.prepare<[number, string, string]>(
    `INSERT INTO folders (id, account_id, name, source) VALUES (${nextId('folders')}, ?, ?, ?)`,
  );
  const exists = db.prepare<[string, string], { id: number }>(
    'SELECT id FROM messages WHERE message_id = ? AND content_hash = ?',
  );
  const insert = db.prepare(
    // The id after every id ever given, also a deleted one's (migration 0022): others name messages by id.
    `INSERT INTO messages (id, folder_id, thread_id, message_id, content_hash, in_reply_to, refs, subject,
       from_name, from_addr, from_text, to_json, cc_json, to_text, date, body_text, body_html,
       attachments_json, has_attachments, source, size, reply_to_json)
     VALUES (${nextId('messages')}, @folder, @thread, @messageId, @contentHash, @inReplyTo, @refs, @subject, @fromName, @fromAddr,
       @fromText, @toJson, @ccJson, @toText, @date, @text, @html, @attachments, @hasAttachments, @source, @size, @replyTo)`,
  );
  const index = db.prepare<[number]>(
    `INSERT INTO messages_fts (rowid, subject, "from", "to", body)
       SELECT search_key, subject, from_text, to_text, body_text FROM messages WHERE id >= ?`,
  );
  // The people the new messages name (contacts.ts reads them), each address once per message as migration
  // 0029 counts them; a name wins over none, the first message's name over a later one's.
  const usable = "a LIKE '_%@_%' AND instr(trim(a), ' ') = 0";
  const countContacts = db.prepare<[{ from: number }]>(
    `INSERT INTO contacts (address, name, count)
       SELECT address, name, n FROM (
         SELECT address, name, min(CASE WHEN name <> '' THEN id END) AS first, count(*) AS n FROM (
           SELECT id, lower(trim(a)) AS address, ifnull(max(trim(n)), '') AS name FROM (
             SELECT id, from_addr AS a, from_name AS n FROM messages WHERE id >= @from
             UNION ALL SELECT m.id, j.value ->> 'address', j.value ->> 'name'
               FROM messages m, json_each(m.to_json) j WHERE m.id >= @from
             UNION ALL SELECT m.id, j.value ->> 'address', j.value ->> 'name'
               FROM messages m, json_each(m.cc_json) j WHERE m.id >= @from
           ) WHERE ${usable} GROUP BY id, lower(trim(a))
         ) GROUP BY address
       ) WHERE true
       ON CONFLICT (address) DO UPDATE SET count = count + excluded.count,
         name = CASE WHEN contacts.name = '' THEN excluded.name ELSE contacts.name END`,
  );
  const contactsChanged = db.prepare('UPDATE contacts_version SET version = version + 1');
  const failure = db.prepare<[string, string, number]>(
    'INSERT INTO import_failures (source, reason, at) VALUES (?, ?, ?)',
  );
  const star = db.prepare<[number]>('UPDATE messages SET starred = 1 WHERE id = ?');
  const threading = prepareThreading(db);
  const warnings = prepareWarnings(db);
  const unsubscribe = prepareUnsubscribeStore(db);
  const folderIds = new Map<string, number>();
  let unindexedFrom: number | null = null;

  function folderId(ref: FolderRef): number {
    const cached = folderIds.get(ref.source);
    if (cached !== undefined) return cached;
    const id =
      findFolder.get(localAccount, ref.source)?.id ??
      Number(addFolder.run(localAccount, ref.name, ref.source).lastInsertRowid);
    folderIds.set(ref.source, id);
    return id;
  }

  /** Stores an imported message; `starred` (a Maildir F flag) stars it when it is new here. */
  function store(folder: FolderRef, source: string, m: ParsedMessage, starred = false): StoreResult {
    const { status, id } = storeInFolder(folderId(folder), source, m);
    if (starred && status === 'imported') star.run(id);
    return status;
  }

  /** Stores a message in a folder of any account; a duplicate names the message that is already stored. */
  function storeInFolder(
    folder: number,
    source: string,
    m: ParsedMessage,
  ): { status: StoreResult; id: number } {
    const existing = exists.get(m.messageId, m.contentHash);
    if (existing) return { status: 'duplicate', id: existing.id };
    const thread = threading.assign(m);
    const { lastInsertRowid } = insert.run({
      folder,
      thread,
      messageId: m.messageId,
      contentHash: m.contentHash,
      inReplyTo: m.inReplyTo,
      refs: JSON.stringify(m.references),
      subject: m.subject,
      fromName: m.from.name,
      fromAddr: m.from.address,
      fromText: formatAddress(m.from),
      toJson: JSON.stringify(m.to),
      ccJson: JSON.stringify(m.cc),
      toText: [...m.to, ...m.cc].map(formatAddress).join(', '),
      date: m.date,
      text: m.text,
      html: m.html,
      attachments: JSON.stringify(m.attachments),
      hasAttachments: m.attachments.length > 0 ? 1 : 0,
      source,
      size: m.size,
      replyTo: JSON.stringify(m.replyTo),
    });
    const id = Number(lastInsertRowid);
    unindexedFrom ??= id;
    threading.counted(thread, m.date);
    // Checked against your mailbox as it stands, this run's earlier messages included (DESIGN §11, "Warnings").
    warnings.check(id, { ...m, folderId: folder });
    if (m.unsubscribe) unsubscribe.save(id, m.unsubscribe);
    return { status: 'imported', id };
  }

  // Adds every message stored since the last call to the search index and its people to the contacts. Call
  // it in the same transaction as the stores, so neither ever misses a committed message.
  function indexStored(): void {
    if (unindexedFrom === null) return;
    index.run(unindexedFrom);
    countContacts.run({ from: unindexedFrom });
    contactsChanged.run();
    unindexedFrom = null;
  }

  function recordFailure(source: string, reason: string, at: number): void {
    failure.run(source, reason, at);
  }

  return { store, storeInFolder, indexStored, recordFailure };
}

function formatAddress(a: { name: string; address: string }): string {
  if (!a.name) return a.address;
  return a.address ? `${a.name} <${a.address}>` : a.name;
}
