// Skimmer stores attachment metadata, never attachment bytes (DESIGN §11), yet decoding attachments was
// half of mailparser's time (bench/README.md). Before parsing, the bodies of attachment parts are cut
// out with mailsplit (the MIME splitter mailparser itself is built on), which reads structure without
// decoding; their decoded sizes are estimated from the encoded bytes.
import { Readable } from 'node:stream';
import mailsplit from '@zone-eu/mailsplit';

type SplitNode = {
  type: 'node';
  multipart: string | false;
  contentType: string | false;
  disposition: string | false;
  encoding: string | false;
  getHeaders(): Buffer;
};
type SplitChunk = SplitNode | { type: 'body' | 'data'; value: Buffer; node?: SplitNode };

export type Stripped = { raw: Buffer; sizes: number[] };

// A leaf part that mailparser would hand back as an attachment: marked as one, or not text at all.
// Text parts (bodies, calendars) and message/* containers are kept whole.
export function isAttachmentPart(contentType: string, disposition: string): boolean {
  if (disposition === 'attachment') return true;
  return (
    !contentType.startsWith('text/') &&
    !contentType.startsWith('multipart/') &&
    !contentType.startsWith('message/')
  );
}

export async function stripAttachmentBodies(raw: Buffer): Promise<Stripped> {
  const splitter = new mailsplit.Splitter({ ignoreEmbedded: true });
  Readable.from([raw]).pipe(splitter);
  const out: Buffer[] = [];
  const sizes: number[] = [];
  let skipping: Counted | null = null;
  const close = () => {
    if (skipping) sizes.push(decodedSize(skipping));
    skipping = null;
  };
  for await (const chunk of splitter as AsyncIterable<SplitChunk>) {
    if (chunk.type === 'node') {
      close();
      out.push(chunk.getHeaders());
      if (!chunk.multipart && isAttachmentPart(chunk.contentType || 'text/plain', chunk.disposition || '')) {
        skipping = { encoding: chunk.encoding || '7bit', bytes: 0, equals: 0 };
      }
    } else if (skipping && chunk.type === 'body') {
      countBody(skipping, chunk.value);
    } else {
      if (chunk.type !== 'body') close();
      out.push(chunk.value);
    }
  }
  close();
  return { raw: Buffer.concat(out), sizes };
}

type Counted = { encoding: string; bytes: number; equals: number };

function countBody(s: Counted, value: Buffer): void {
  s.bytes += value.length;
  if (s.encoding !== 'base64') return;
  // Only base64 alphabet bytes carry data: line breaks are not counted, "=" is padding. Counted with
  // native searches: a byte loop in JS was a third of a parse thread's time on attachment-heavy mail.
  s.bytes -= occurrences(value, 0x0a) + occurrences(value, 0x0d) + occurrences(value, 0x20);
  const equals = occurrences(value, 0x3d);
  s.bytes -= equals;
  s.equals += equals;
}

function occurrences(value: Buffer, byte: number): number {
  let n = 0;
  for (let i = value.indexOf(byte); i >= 0; i = value.indexOf(byte, i + 1)) n++;
  return n;
}

function decodedSize(s: Counted): number {
  if (s.encoding !== 'base64') return s.bytes;
  return Math.max(0, Math.floor(((s.bytes + s.equals) * 3) / 4) - s.equals);
}

/** The size an attachment's body is given when it is cut out: estimated from its encoded bytes, as above. */
export function estimatedSize(encoding: string, body: readonly Buffer[]): number {
  const counted: Counted = { encoding, bytes: 0, equals: 0 };
  for (const value of body) countBody(counted, value);
  return decodedSize(counted);
}
