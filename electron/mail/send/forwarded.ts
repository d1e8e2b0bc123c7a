// The bytes of a forwarded attachment, read when the forward is sent (DESIGN §11, "Attachments"), never before:
// Skimmer stores no attachment bytes (§11), so they are read where the original is kept, by the one reader of
// attachments (attachments/attachment-bytes.ts: an imported message from its file while it is still the message
// imported, a synced one from its IMAP server by UID and part). What cannot be read is a ForwardUnreadable naming
// the attachment and why: the send fails with that sentence, the message stays in the outbox to retry, nothing is
// lost.
import type { Db } from '../../db/open.ts';
import type { Places } from '../../files/safe-open.ts';
import type { Accounts } from '../accounts.ts';
import { prepareAttachmentBytes } from '../attachments/attachment-bytes.ts';
import { AttachmentError } from '../attachments/attachment-error.ts';
import type { OutgoingFile } from './compose.ts';
import type { OutboxFile } from './draft-files.ts';

/** A forwarded attachment that cannot be read now; the message says which and why, for the outbox. */
export class ForwardUnreadable extends Error {}

type Wanted = Extract<OutboxFile, { kind: 'forwarded' }>;

export function prepareForwardedReader(db: Db, deps: { accounts: Pick<Accounts, 'login'>; places: Places }) {
  const attachments = prepareAttachmentBytes(db, deps);
  const unreadable = (w: Wanted, why: string) =>
    new ForwardUnreadable(`The forwarded attachment "${w.name || 'unnamed'}" cannot be read: ${why}`);
  const lowerFirst = (s: string) => s.charAt(0).toLowerCase() + s.slice(1);

  async function ofMessage(message: number, wanted: readonly Wanted[]): Promise<Buffer[]> {
    try {
      const parts = await attachments.read(
        message,
        wanted.map((w) => w.index),
      );
      return parts.map((p, k) => {
        const w = wanted[k] as Wanted;
        // SECURITY: the part at that place must still be the one forwarded (its name as stored when the forward was
        // written); another message's file of another name is never sent in its place.
        if (p.name !== w.name) throw unreadable(w, 'the original message has changed since.');
        return p.content;
      });
    } catch (e) {
      if (!(e instanceof AttachmentError)) throw e;
      const first = wanted[0] as Wanted;
      if (e.reason === 'not_found' && !attachments.exists(message)) {
        throw unreadable(first, 'the original message is no longer in the mailbox.');
      }
      if (e.reason === 'gone')
        throw unreadable(first, 'the original message is no longer on the mail server.');
      throw unreadable(first, lowerFirst(e.message));
    }
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
        const found = await ofMessage(message, wanted);
        wanted.forEach((w, k) => {
          bytes.set(w, found[k] as Buffer);
        });
      }
      return files.map((f) => ({
        name: f.name,
        contentType: f.contentType,
        content: f.kind === 'file' ? f.content : (bytes.get(f) as Buffer),
      }));
    },
  };
}
