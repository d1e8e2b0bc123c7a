// Downloading one batch of new messages (issue 5): flags, size, BODYSTRUCTURE and the header fields Skimmer
// stores, then the text parts of each message not already stored (one FETCH per shape of message: most share
// one or two shapes). Not the ENVELOPE, which repeats those fields, nor the whole header block, nor
// attachment bytes. Runs on the sync thread's connection or on the fetcher thread's (imap-fetcher.ts), so
// a batch can also be packed into one ArrayBuffer and moved between threads without copying it again.
import type { ImapFlow } from 'imapflow';
import type { Attachment } from '../../shared/contract.ts';
import { planParts, type Structure, type TextPart } from './imap-message.ts';

// What parse.ts reads from a header block; the rest (Received, DKIM, …) is never stored.
const storedHeaderFields = ['message-id', 'in-reply-to', 'references', 'subject', 'from', 'to', 'cc', 'date'];

export type FetchedMessage = {
  uid: number;
  flags: string[];
  size: number;
  headers: Buffer;
  /** Null when the server gave no BODYSTRUCTURE: such a message is skipped, as before the fetcher. */
  plan: { text: TextPart[]; attachments: Attachment[] } | null;
  /** The text parts, in the plan's order; null when the message was known already (a move or copy). */
  parts: Buffer[] | null;
};

/** The Message-ID in a header block (folded lines joined), or '' when there is none. */
export function messageIdOf(headers: Buffer | undefined): string {
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
  const byShape = new Map<string, FetchedMessage[]>();
  for (const m of listed) {
    const headers = m.headers ?? Buffer.alloc(0);
    const size = m.size ?? 0;
    const plan = m.bodyStructure ? planParts(m.bodyStructure as Structure) : null;
    const message: FetchedMessage = {
      uid: m.uid,
      flags: storedFlags(m.flags),
      size,
      headers,
      plan,
      parts: null,
    };
    messages.push(message);
    if (!plan || known(messageIdOf(headers), size)) continue;
    message.parts = [];
    const key = plan.text.map((t) => t.part).join(' ');
    const group = byShape.get(key);
    if (group) group.push(message);
    else byShape.set(key, [message]);
  }
  for (const [key, group] of byShape) {
    if (key === '') continue;
    const wanted = key.split(' ');
    const fetched = await client.fetchAll(
      group.map((g) => g.uid).join(','),
      { uid: true, bodyParts: wanted },
      { uid: true },
    );
    const got = new Map(fetched.map((f) => [f.uid, f.bodyParts] as const));
    for (const g of group) g.parts = wanted.map((part) => got.get(g.uid)?.get(part) ?? Buffer.alloc(0));
  }
  return messages;
}

/** A batch as it crosses threads: the bytes in one ArrayBuffer (transferred), the rest described beside. */
export type PackedBatch = {
  bytes: ArrayBuffer;
  messages: (Omit<FetchedMessage, 'headers' | 'parts'> & { headers: number; parts: number[] | null })[];
};

export function packBatch(messages: readonly FetchedMessage[]): PackedBatch {
  let total = 0;
  for (const m of messages) {
    total += m.headers.length;
    for (const p of m.parts ?? []) total += p.length;
  }
  // A fresh ArrayBuffer: a small Buffer may be a slice of Node's shared pool, which must not be transferred.
  const bytes = new Uint8Array(total);
  let at = 0;
  const put = (b: Buffer) => {
    bytes.set(b, at);
    at += b.length;
    return b.length;
  };
  return {
    bytes: bytes.buffer,
    messages: messages.map((m) => ({ ...m, headers: put(m.headers), parts: m.parts?.map(put) ?? null })),
  };
}

export function unpackBatch(packed: PackedBatch): FetchedMessage[] {
  let at = 0;
  const take = (length: number) => {
    const b = Buffer.from(packed.bytes, at, length);
    at += length;
    return b;
  };
  return packed.messages.map((m) => ({ ...m, headers: take(m.headers), parts: m.parts?.map(take) ?? null }));
}
