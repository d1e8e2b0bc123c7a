// The original of a stored message, where it lives (DESIGN §11, "Attachments"): Skimmer stores no attachment
// bytes, so a forward (send/forwarded.ts) and a save (attachment-bytes.ts) read them here. Imported mail from its
// source (`messages.source`: the .eml or Maildir file, or `path#offset` in an mbox), opened under the rule for
// every file (files/safe-open.ts), and only while it is still the message imported (its size and sha256).
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { openUserFile, type Places, readUserFile } from '../../files/safe-open.ts';
import { maxMessageBytes } from '../import/parse-bounds.ts';
import { splitMbox } from '../import/sources.ts';

export type Imported = { source: string; size: number; content_hash: string };

/** The file a source names (an mbox's `path#offset` without its offset). */
export const sourcePath = (source: string) => /^(.*)#(\d+)$/.exec(source)?.[1] ?? source;

/**
 * The bytes at a message's source, as read now: a whole .eml, or one message of an mbox. Throws what the file
 * rule throws (FileRefusal) and the system's errors (ENOENT) for the caller to word.
 * SECURITY: the path is the one the import recorded, opened again under the same rule as any file the user
 * names (the given places, links resolved, never the data folder), so a database edited to point elsewhere
 * cannot make Skimmer read /proc/self/environ or the vault key.
 */
export async function readSource(source: string, places: Places): Promise<Buffer> {
  const hash = /^(.*)#(\d+)$/.exec(source);
  return hash
    ? await mboxMessage(hash[1] as string, Number(hash[2]), places)
    : await readUserFile(source, places, maxMessageBytes);
}

// The name as parse.ts stored it: control characters as spaces, trimmed, at most 255 characters.
export function storedName(filename: string | undefined): string {
  return (
    (filename ?? '')
      // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is replaced
      .replace(/[\u0000-\u001f\u007f]+/g, ' ')
      .trim()
      .slice(0, 255)
  );
}

/**
 * The message as it was imported, or null when the bytes read are another message. The last message of an mbox
 * ran to the end of the file when it was imported; mail appended since ends it at the next "From " line
 * instead, after the blank line before it, so line ends past the imported size are not a change.
 */
export function asImported(raw: Buffer, o: Pick<Imported, 'size' | 'content_hash'>): Buffer | null {
  const tail = raw.subarray(Math.min(o.size, raw.length));
  const lineEnds = tail.length > 0 && tail.length <= 2 && /^\r?\n$|^\n\n?$/.test(tail.toString('latin1'));
  const message = lineEnds ? raw.subarray(0, o.size) : raw;
  if (message.length !== o.size) return null;
  return createHash('sha256').update(message).digest('hex') === o.content_hash ? message : null;
}

/** Every attachment of a message, in the order parse.ts stored them (mailparser's), with its decoded bytes. */
export async function parsedAttachments(message: Buffer) {
  // Loaded here, when a forward or a save needs a file's attachments: mailparser and its charset tables are 1.2 MB
  // built, a sixth of every command's start when the app loaded them with it (issue 18, bench/cli-start.ts).
  const { simpleParser } = await import('mailparser');
  const parsed = await simpleParser(message, {
    skipImageLinks: true,
    skipTextLinks: true,
    skipTextToHtml: true,
  });
  return parsed.attachments;
}

// One message of an mbox, from the "From " line at `offset` (where the import found it) to the next one.
async function mboxMessage(path: string, offset: number, places: Places): Promise<Buffer> {
  const { handle } = await openUserFile(path, places, Number.POSITIVE_INFINITY);
  try {
    const stream = createReadStream('', {
      fd: handle,
      start: offset,
      autoClose: false,
      highWaterMark: 1024 * 1024,
    });
    for await (const m of splitMbox(stream)) {
      stream.destroy();
      return m.raw;
    }
    throw Object.assign(new Error('empty'), { code: 'ENOENT' });
  } finally {
    await handle.close();
  }
}
