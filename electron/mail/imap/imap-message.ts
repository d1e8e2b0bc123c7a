// A synced message without its attachment bytes (issue 5: "envelopes, flags, BODYSTRUCTURE and the text
// parts, not attachment bytes"). From the BODYSTRUCTURE we pick the text parts to fetch and list the
// attachments; the fetched header block and the raw text parts are then put back together as a small MIME
// message, so the one parser used for imported mail (parse.ts) reads synced mail too. Pure.

import { createHash } from 'node:crypto';
import { contentIdOf } from '../../../shared/content-id.ts';
import type { Attachment } from '../../../shared/contract/index.ts';

/** The parts of BODYSTRUCTURE this module reads (imapflow's MessageStructureObject). */
export type Structure = {
  part?: string | undefined;
  type: string;
  parameters?: Record<string, string> | undefined;
  encoding?: string | undefined;
  size?: number | undefined;
  disposition?: string | undefined;
  /** The part's Content-ID, with its angle brackets. */
  id?: string | undefined;
  dispositionParameters?: Record<string, string> | undefined;
  childNodes?: Structure[] | undefined;
};

export type TextPart = { part: string; type: 'text/plain' | 'text/html'; charset: string; encoding: string };
export type FetchedPart = TextPart & { content: Buffer };

const nameOf = (s: Structure) => s.dispositionParameters?.filename ?? s.parameters?.name ?? '';

// base64 carries 57 bytes in each 76-character line plus CRLF: the size of the decoded bytes, estimated.
function decodedSize(s: Structure): number {
  const size = s.size ?? 0;
  return s.encoding?.toLowerCase() === 'base64' ? Math.floor((size * 57) / 78) : size;
}

/**
 * The first text/plain and first text/html part that are the message's own body (not attachments, not
 * inside an attached message), and every other leaf as an attachment.
 */
export function planParts(root: Structure): { text: TextPart[]; attachments: Attachment[] } {
  const { text, attachments } = walk(root);
  return { text, attachments: attachments.map((a) => a.attachment) };
}

/**
 * The BODYSTRUCTURE part of each attachment, in the order planParts lists them (the order stored in
 * `attachments_json`): where a forwarded attachment's bytes are downloaded from (send/forwarded.ts).
 */
export function attachmentParts(root: Structure): string[] {
  return walk(root).attachments.map((a) => a.part);
}

function walk(root: Structure): {
  text: TextPart[];
  attachments: { attachment: Attachment; part: string }[];
} {
  const text: TextPart[] = [];
  const attachments: { attachment: Attachment; part: string }[] = [];
  const visit = (s: Structure, partId: string, inAttachedMessage: boolean) => {
    const type = s.type.toLowerCase();
    if (s.childNodes && s.childNodes.length > 0 && type.startsWith('multipart/')) {
      s.childNodes.forEach((child, i) => {
        visit(child, child.part ?? (partId ? `${partId}.${i + 1}` : String(i + 1)), inAttachedMessage);
      });
      return;
    }
    const isAttachment = s.disposition?.toLowerCase() === 'attachment' || inAttachedMessage;
    if (
      !isAttachment &&
      (type === 'text/plain' || type === 'text/html') &&
      !text.some((t) => t.type === type)
    ) {
      text.push({
        part: partId,
        type,
        charset: s.parameters?.charset ?? 'us-ascii',
        encoding: (s.encoding ?? '7bit').toLowerCase(),
      });
      return;
    }
    if (type === 'message/rfc822') {
      // A forwarded message is one attachment; its own parts are not this message's body.
      const attachment = { name: nameOf(s) || 'message.eml', contentType: type, size: decodedSize(s) };
      attachments.push({ attachment, part: partId });
      return;
    }
    const contentId = contentIdOf(s.id);
    attachments.push({
      attachment: {
        name: nameOf(s),
        contentType: type,
        size: decodedSize(s),
        ...(contentId ? { contentId } : {}),
      },
      part: partId,
    });
  };
  // A message that is not multipart has its body as part 1 (RFC 3501 §6.4.5).
  visit(root, root.childNodes && root.childNodes.length > 0 ? '' : '1', false);
  return { text, attachments };
}

// Header fields that describe the original body, which is replaced by the fetched text parts.
const bodyFields = /^(content-type|content-transfer-encoding|content-disposition|mime-version)\s*:/i;

/** The header block without the fields that describe the original body (folded lines included). */
export function headersWithoutBody(headers: Buffer): string {
  const lines = headers
    .toString('latin1')
    .replace(/\r?\n\r?\n[\s\S]*$/, '')
    .split(/\r?\n/);
  const kept: string[] = [];
  let dropping = false;
  for (const line of lines) {
    if (/^[ \t]/.test(line)) {
      if (!dropping) kept.push(line);
      continue;
    }
    dropping = bodyFields.test(line);
    if (!dropping && line !== '') kept.push(line);
  }
  return kept.join('\r\n');
}

const quoteParam = (v: string) => `"${v.replace(/["\\\r\n]/g, '')}"`;

/**
 * The message put back together: its own headers (bytes kept as they came, read as latin1 so no byte
 * changes) and the text parts, each with the charset and transfer encoding BODYSTRUCTURE gave it.
 */
export function rebuild(headers: Buffer, parts: readonly FetchedPart[]): Buffer {
  const head = headersWithoutBody(headers);
  const partHead = (p: FetchedPart) =>
    `Content-Type: ${p.type}; charset=${quoteParam(p.charset)}\r\nContent-Transfer-Encoding: ${p.encoding}\r\n`;
  if (parts.length === 0) {
    return Buffer.from(
      `${head}\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=us-ascii\r\n\r\n`,
      'latin1',
    );
  }
  if (parts.length === 1) {
    const [p] = parts as [FetchedPart];
    return Buffer.concat([
      Buffer.from(`${head}\r\nMIME-Version: 1.0\r\n${partHead(p)}\r\n`, 'latin1'),
      p.content,
    ]);
  }
  // The boundary must not occur in any part, and must be the same at every sync (the content hash of the
  // rebuilt message is what dedupes it): made from a hash of the parts, lengthened until it is absent.
  const digest = createHash('sha256');
  for (const p of parts) digest.update(p.content);
  let boundary = `skimmer-${digest.digest('hex').slice(0, 24)}`;
  while (parts.some((p) => p.content.includes(boundary))) boundary += '-';
  const pieces: Buffer[] = [
    Buffer.from(
      `${head}\r\nMIME-Version: 1.0\r\nContent-Type: multipart/alternative; boundary="${boundary}"\r\n\r\n`,
      'latin1',
    ),
  ];
  for (const p of parts) {
    pieces.push(
      Buffer.from(`--${boundary}\r\n${partHead(p)}\r\n`, 'latin1'),
      p.content,
      Buffer.from('\r\n', 'latin1'),
    );
  }
  pieces.push(Buffer.from(`--${boundary}--\r\n`, 'latin1'));
  return Buffer.concat(pieces);
}
