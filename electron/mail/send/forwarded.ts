// The bytes of a forwarded attachment, read when the forward is sent (DESIGN §11, "Attachments"), never before:
// Skimmer stores no attachment bytes (§11), so they are read where the original is kept. Imported mail from its
// source (`messages.source`: the .eml or Maildir file, or `path#offset` in an mbox), opened under the rule for
// every file (files/safe-open.ts) and parsed whole by mailparser; synced mail from its IMAP server, the one part
// downloaded by UID (its place in BODYSTRUCTURE found as the sync listed it, imap-message.ts). What cannot be
// read is a ForwardUnreadable naming the attachment and where it was looked for: the send fails with that
// sentence, the message stays in the outbox to retry, nothing is lost. An imported message is read only if it is
// still the message imported: its size and sha256 are those the import stored (`messages.size`, `content_hash`),
// else the file changed since and nothing is sent.
import type { Db } from '../../db/open.ts';
import { FileRefusal, type Places } from '../../files/safe-open.ts';
import type { Accounts } from '../accounts.ts';
import {
  asImported,
  parsedAttachments,
  readSource,
  sourcePath,
  storedName,
} from '../attachments/original.ts';
import { imapClient, mailFailure } from '../imap/imap-connect.ts';
import { attachmentParts, type Structure } from '../imap/imap-message.ts';
import type { OutgoingFile } from './compose.ts';
import type { OutboxFile } from './draft-files.ts';

/** A forwarded attachment that cannot be read now; the message says which and why, for the outbox. */
export class ForwardUnreadable extends Error {}

type Wanted = Extract<OutboxFile, { kind: 'forwarded' }>;
type Origin = { source: string; size: number; content_hash: string; account_id: number; imap: number };
type Location = { uid: number; path: string };

export function prepareForwardedReader(db: Db, deps: { accounts: Pick<Accounts, 'login'>; places: Places }) {
  const origin = db.prepare<[number], Origin>(
    `SELECT m.source, m.size, m.content_hash, f.account_id,
       EXISTS (SELECT 1 FROM imap_accounts i WHERE i.account_id = f.account_id) AS imap
       FROM messages m JOIN folders f ON f.id = m.folder_id WHERE m.id = ?`,
  );
  const locations = db.prepare<[number], Location>(
    `SELECT l.uid, i.path FROM imap_locations l JOIN imap_folders i ON i.folder_id = l.folder_id
     WHERE l.message = ? ORDER BY l.folder_id`,
  );

  const unreadable = (w: Wanted, why: string) =>
    new ForwardUnreadable(`The forwarded attachment "${w.name || 'unnamed'}" cannot be read: ${why}`);

  // The attachments of an imported message, from its file (or its place in an mbox), as mailparser lists them:
  // in the order parse.ts stored them.
  // SECURITY: the path is the one the import recorded, opened again under the same rule as any file the user
  // names (the user's places, links resolved, never the data folder), so a database edited to point elsewhere
  // cannot make a forward carry /proc/self/environ or the vault key.
  async function fromSource(o: Origin, wanted: readonly Wanted[]): Promise<Map<Wanted, Buffer>> {
    const path = sourcePath(o.source);
    let raw: Buffer;
    try {
      raw = await readSource(o.source, deps.places);
    } catch (e) {
      const why =
        e instanceof FileRefusal
          ? e.message
          : (e as { code?: string }).code === 'ENOENT'
            ? 'it is no longer there.'
            : 'it could not be read.';
      throw unreadable(wanted[0] as Wanted, `the file ${path} it was imported from: ${why}`);
    }
    // SECURITY: the file is checked, not trusted: a file rewritten since the import (another mail program
    // compacting an mbox, a replaced .eml) can hold another message at the recorded place, whose attachment of
    // the same name is someone else's file. Only the bytes imported, by size and hash, are forwarded.
    const message = asImported(raw, o);
    if (message === null) {
      throw unreadable(wanted[0] as Wanted, `the file ${path} it was imported from has changed since.`);
    }
    const attachments = await parsedAttachments(message);
    const found = new Map<Wanted, Buffer>();
    for (const w of wanted) {
      const a = attachments[w.index];
      if (!a || storedName(a.filename) !== w.name) {
        throw unreadable(w, `the file ${path} it was imported from has changed since.`);
      }
      found.set(w, a.content);
    }
    return found;
  }

  // The parts of a synced message, downloaded by UID from the first folder the server keeps it in.
  async function fromServer(accountId: number, message: number, wanted: readonly Wanted[]) {
    const at = locations.all(message);
    const first = wanted[0] as Wanted;
    if (at.length === 0) throw unreadable(first, 'the original message is no longer on the mail server.');
    const login = await deps.accounts.login(accountId);
    const client = imapClient(login);
    const found = new Map<Wanted, Buffer>();
    try {
      await client.connect();
      const { uid, path } = at[0] as Location;
      await client.mailboxOpen(path, { readOnly: true });
      // imapflow answers `false` for a uid that is gone.
      const structure = (
        (await client.fetchOne(String(uid), { uid: true, bodyStructure: true }, { uid: true })) || null
      )?.bodyStructure;
      if (!structure) throw unreadable(first, 'the original message is no longer on the mail server.');
      const parts = attachmentParts(structure as Structure);
      for (const w of wanted) {
        const part = parts[w.index];
        if (part === undefined) throw unreadable(w, 'the original message on the server has changed.');
        const got = await client.download(String(uid), part, { uid: true, decodeText: false });
        if (!('content' in got) || !got.content) throw unreadable(w, 'the server did not give it.');
        const chunks: Buffer[] = [];
        for await (const c of got.content) chunks.push(c as Buffer);
        found.set(w, Buffer.concat(chunks));
      }
    } catch (e) {
      if (e instanceof ForwardUnreadable) throw e;
      throw unreadable(first, mailFailure(e, `the IMAP server ${login.imap.host}`).message);
    } finally {
      await client.logout().catch(() => client.close());
    }
    return found;
  }

  return {
    /** The files of an outbox message with their bytes in hand, in their order. */
    async read(files: readonly OutboxFile[]): Promise<OutgoingFile[]> {
      const byMessage = new Map<number, Wanted[]>();
      for (const f of files) {
        if (f.kind === 'forwarded') byMessage.set(f.message, [...(byMessage.get(f.message) ?? []), f]);
      }
      const bytes = new Map<OutboxFile, Buffer>();
      for (const [message, wanted] of byMessage) {
        const o = origin.get(message);
        if (!o) throw unreadable(wanted[0] as Wanted, 'the original message is no longer in the mailbox.');
        const found = o.imap ? await fromServer(o.account_id, message, wanted) : await fromSource(o, wanted);
        for (const [w, b] of found) bytes.set(w, b);
      }
      return files.map((f) => ({
        name: f.name,
        contentType: f.contentType,
        content: f.kind === 'file' ? f.content : (bytes.get(f) as Buffer),
      }));
    },
  };
}
