// Downloading one batch of new messages (issue 5): flags, size, BODYSTRUCTURE and the header fields Skimmer
// stores, then the text parts of each message not already stored (one FETCH per shape of message: most share
// one or two shapes), rebuilt into the small MIME message parse.ts reads (imap-message.ts). Not the
// ENVELOPE, which repeats those fields, nor the whole header block, nor attachment bytes. Runs on the sync
// thread's connection or on the fetcher thread's (imap-fetcher.ts), so a batch can also be packed into one
// ArrayBuffer and moved between threads without copying it again.
import type { ImapFlow } from 'imapflow';
import type { Attachment } from '../../../shared/contract/index.ts';
import { planParts, rebuild, type Structure, type TextPart } from './imap-message.ts';

// What parse.ts reads from a header block; the rest (Received, DKIM, …) is never stored. Reply-To and every
// Authentication-Results (in the order the server keeps them, topmost first) are read for the warnings.
const storedHeaderFields = [
  'message-id',
  'in-reply-to',
  'references',
  'subject',
  'from',
  'to',
  'cc',
  'date',
  'reply-to',
  'authentication-results',
  // How the message offers to unsubscribe (mail/unsubscribe/list-unsubscribe.ts).
  'list-unsubscribe',
  'list-unsubscribe-post',
];

export type FetchedMessage = {
  uid: number;
  flags: string[];
  size: number;
  messageId: string;
  /** From BODYSTRUCTURE; null when the server gave none: such a message is skipped. */
  attachments: Attachment[] | null;
  /** The message rebuilt from its text parts; null when it was known already (a move or copy). */
  raw: Buffer | null;
};

/** The Message-ID in a header block (folded lines joined), or '' when there is none. */
function messageIdOf(headers: Buffer | undefined): string {
  const text = headers?.toString('latin1').replace(/\r?\n[ \t]+/g, ' ') ?? '';
  return /^message-id:[ \t]*(<[^>\r\n]*>)/im.exec(text)?.[1] ?? '';
}

// \Recent belongs to one session (RFC 3501 §2.3.2), so it is never stored or compared.
export const storedFlags = (flags: Set<string> | undefined) =>
  [...(flags ?? [])].filter((f) => f !== '\\Recent').sort();

/** One batch; `known` says which messages are stored already, whose text is not downloaded again. */
export async function fetchBatch(
  client: ImapFlow,
  uids: readonly number[],
  known: (messageId: string, size: number) => boolean,
): Promise<FetchedMessage[]> {
  const listed = await client.fetchAll(
    uids.join(','),
    { uid: true, flags: true, bodyStructure: true, size: true, headers: storedHeaderFields },
    { uid: true },
  );
  const messages: FetchedMessage[] = [];
  type Wanted = { message: FetchedMessage; headers: Buffer; text: TextPart[] };
  const byShape = new Map<string, Wanted[]>();
  for (const m of listed) {
    const headers = m.headers ?? Buffer.alloc(0);
    const size = m.size ?? 0;
    const messageId = messageIdOf(headers);
    const plan = m.bodyStructure ? planParts(m.bodyStructure as Structure) : null;
    const message: FetchedMessage = {
      uid: m.uid,
      flags: storedFlags(m.flags),
      size,
      messageId,
      attachments: plan?.attachments ?? null,
      raw: null,
    };
    messages.push(message);
    if (!plan || known(messageId, size)) continue;
    const key = plan.text.map((t) => t.part).join(' ');
    const wanted = { message, headers, text: plan.text };
    const group = byShape.get(key);
    if (group) group.push(wanted);
    else byShape.set(key, [wanted]);
  }
  for (const [key, group] of byShape) {
    const fetched =
      key === ''
        ? []
        : await client.fetchAll(
            group.map((g) => g.message.uid).join(','),
            { uid: true, bodyParts: key.split(' ') },
            { uid: true },
          );
    const got = new Map(fetched.map((f) => [f.uid, f.bodyParts] as const));
    for (const { message, headers, text } of group) {
      const bodies = got.get(message.uid);
      message.raw = rebuild(
        headers,
        text.map((t) => ({ ...t, content: bodies?.get(t.part) ?? Buffer.alloc(0) })),
      );
    }
  }
  return messages;
}

/** A batch as it crosses threads: the bytes in one ArrayBuffer (transferred), the rest described beside. */
export type PackedBatch = {
  bytes: ArrayBuffer;
  messages: (Omit<FetchedMessage, 'raw'> & { raw: number | null })[];
};

export function packBatch(messages: readonly FetchedMessage[]): PackedBatch {
  let total = 0;
  for (const m of messages) total += m.raw?.length ?? 0;
  // A fresh ArrayBuffer: a small Buffer may be a slice of Node's shared pool, which must not be transferred.
  const bytes = new Uint8Array(total);
  let at = 0;
  const put = (b: Buffer) => {
    bytes.set(b, at);
    at += b.length;
    return b.length;
  };
  return { bytes: bytes.buffer, messages: messages.map((m) => ({ ...m, raw: m.raw ? put(m.raw) : null })) };
}

export function unpackBatch(packed: PackedBatch): FetchedMessage[] {
  let at = 0;
  return packed.messages.map((m) => {
    if (m.raw === null) return { ...m, raw: null };
    const raw = Buffer.from(packed.bytes, at, m.raw);
    at += m.raw;
    return { ...m, raw };
  });
}
