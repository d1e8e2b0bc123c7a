// The bytes of a stored message's attachment, from where the message lives (issue 29 §1; DESIGN §11,
// "Attachments"): Skimmer stores only the list (`messages.attachments_json`), so the bytes are read on demand.
// An imported message from its original file, checked to be still the message imported (original.ts), its
// part N as mailparser lists it (the order parse.ts stored); a synced message from its IMAP server, part N of
// its BODYSTRUCTURE downloaded by UID (the order the sync listed, imap-message.ts). Either way the bytes are the
// part's decoded content, identical to what the sender attached.
import type { Attachment } from '../../../shared/contract/index.ts';
import type { Db } from '../../db/open.ts';
import type { Places } from '../../files/safe-open.ts';
import type { Accounts } from '../accounts.ts';
import { imapClient, mailFailure } from '../imap/imap-connect.ts';
import { attachmentParts, type Structure } from '../imap/imap-message.ts';
import { AttachmentError } from './attachment-error.ts';
import {
  asImported,
  parsedAttachments,
  readSource,
  sourcePath,
  sourceProblem,
  storedName,
} from './original.ts';

/** The most Skimmer reads of one attachment (the bound on a whole imported message is parse-bounds.ts's). */
const maxAttachmentBytes = 200 * 1024 * 1024;

export type AttachmentBytes = Attachment & { index: number; content: Buffer };

type Origin = {
  source: string;
  size: number;
  content_hash: string;
  account_id: number;
  imap: number;
  attachments_json: string;
};
type Location = { uid: number; path: string };

export function prepareAttachmentBytes(db: Db, deps: { accounts: Pick<Accounts, 'login'>; places: Places }) {
  const origin = db.prepare<[number], Origin>(
    `SELECT m.source, m.size, m.content_hash, m.attachments_json, f.account_id,
       EXISTS (SELECT 1 FROM imap_accounts i WHERE i.account_id = f.account_id) AS imap
       FROM messages m JOIN folders f ON f.id = m.folder_id WHERE m.id = ?`,
  );
  const locations = db.prepare<[number], Location>(
    `SELECT l.uid, i.path FROM imap_locations l JOIN imap_folders i ON i.folder_id = l.folder_id
     WHERE l.message = ? ORDER BY l.folder_id`,
  );

  function stored(message: number): { o: Origin; list: Attachment[] } {
    const o = origin.get(message);
    if (!o) throw new AttachmentError('not_found', `There is no message with id ${message}.`);
    return { o, list: JSON.parse(o.attachments_json) as Attachment[] };
  }

  async function fromSource(o: Origin, list: readonly Attachment[], indexes: readonly number[]) {
    const path = sourcePath(o.source);
    let raw: Buffer;
    try {
      raw = await readSource(o.source, deps.places);
    } catch (e) {
      const why = sourceProblem(e);
      throw new AttachmentError('unreadable', `The file ${path} this message was imported from: ${why}`);
    }
    // SECURITY: a file rewritten since the import can hold another message at the recorded place, whose
    // attachment of the same name is someone else's file: only the bytes imported, by size and hash, are read.
    const message = asImported(raw, o);
    const changed = () =>
      new AttachmentError('changed', `The file ${path} this message was imported from has changed since.`);
    if (message === null) throw changed();
    const parts = await parsedAttachments(message);
    return indexes.map((i) => {
      const a = parts[i];
      if (!a || storedName(a.filename) !== list[i]?.name) throw changed();
      return a.content;
    });
  }

  async function fromServer(o: Origin, message: number, indexes: readonly number[]) {
    const at = locations.all(message);
    const gone = () => new AttachmentError('gone', 'This message is no longer on the mail server.');
    if (at.length === 0) throw gone();
    const login = await deps.accounts.login(o.account_id);
    const client = imapClient(login);
    const found: Buffer[] = [];
    try {
      await client.connect();
      const { uid, path } = at[0] as Location;
      await client.mailboxOpen(path, { readOnly: true });
      // imapflow answers `false` for a uid that is gone.
      const structure = (
        (await client.fetchOne(String(uid), { uid: true, bodyStructure: true }, { uid: true })) || null
      )?.bodyStructure;
      if (!structure) throw gone();
      const parts = attachmentParts(structure as Structure);
      for (const i of indexes) {
        const part = parts[i];
        if (part === undefined) {
          throw new AttachmentError(
            'changed',
            'The message on the mail server has changed since it was synced.',
          );
        }
        const got = await client.download(String(uid), part, { uid: true, decodeText: false });
        if (!('content' in got) || !got.content) throw gone();
        const chunks: Buffer[] = [];
        let bytes = 0;
        for await (const c of got.content) {
          bytes += (c as Buffer).length;
          // SECURITY: a server's part is as long as the server says; past the bound nothing more is held.
          if (bytes > maxAttachmentBytes) {
            got.content.destroy();
            throw new AttachmentError('too_large', 'This attachment is larger than Skimmer reads (200 MB).');
          }
          chunks.push(c as Buffer);
        }
        found.push(Buffer.concat(chunks));
      }
    } catch (e) {
      if (e instanceof AttachmentError) throw e;
      throw new AttachmentError('server', mailFailure(e, `the IMAP server ${login.imap.host}`).message);
    } finally {
      await client.logout().catch(() => client.close());
    }
    return found;
  }

  return {
    /** Whether the message is still in the mailbox. */
    exists: (message: number) => origin.get(message) !== undefined,
    /** The attachments of a message as stored (names, types, sizes), numbered from 0 in their order. */
    list(message: number): (Attachment & { index: number })[] {
      return stored(message).list.map((a, index) => ({ ...a, index }));
    },
    /** The bytes of the attachments numbered `indexes` (from 0), read from where the message lives, in order. */
    async read(message: number, indexes: readonly number[]): Promise<AttachmentBytes[]> {
      const { o, list } = stored(message);
      for (const i of indexes) {
        if (!Number.isSafeInteger(i) || i < 0 || i >= list.length) {
          const has =
            list.length === 0
              ? 'it has no attachments'
              : `it has ${list.length} (numbered 1 to ${list.length})`;
          throw new AttachmentError('not_found', `Message ${message} has no attachment ${i + 1}: ${has}.`);
        }
      }
      if (indexes.length === 0) return [];
      const bytes = o.imap ? await fromServer(o, message, indexes) : await fromSource(o, list, indexes);
      return indexes.map((index, k) => ({
        ...(list[index] as Attachment),
        index,
        content: bytes[k] as Buffer,
      }));
    },
  };
}

export type AttachmentReader = ReturnType<typeof prepareAttachmentBytes>;
