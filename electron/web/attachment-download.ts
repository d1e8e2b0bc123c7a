// Save and Save all in browser mode (issue 29 §1): a GET for one attachment, or for all of a message's as a zip,
// answered from the main process's store of parts (mail/attachments/attachment-store.ts) straight into the
// response, so the page never holds the bytes (a 25 MB attachment was 25 MB of base64 ranges and a Blob in the
// renderer before). Under the bridge's path, so the session cookie (Path=/bridge, HttpOnly, SameSite=Strict)
// comes with it and is checked as the socket's is (server.ts). A HEAD reads the part (into the cache) and says
// whether the GET will work, with the sentence when not, which a download link cannot tell the page.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Zip, ZipPassThrough } from 'fflate';
import { attachmentPath, errorHeader } from '../../shared/attachment-urls.ts';
import { distinctNames, safeFileName } from '../../shared/safe-file-name.ts';
import { toFailure } from '../bridge/errors.ts';
import type { AttachmentStore } from '../mail/attachments/attachment-store.ts';

// Written a piece at a time, waiting for the socket to drain: the response buffers no more than this.
const pieceBytes = 256 * 1024;

/**
 * `Content-Disposition: attachment` for `name` (RFC 6266): a plain-ASCII `filename` for old readers and the UTF-8
 * `filename*` (RFC 8187). SECURITY: the name is made safe first (shared/safe-file-name.ts: one component, no
 * controls, quotes or separators), and every byte outside token characters is percent-encoded, so no name from
 * mail can end the header, add another, or name a path.
 */
export function contentDisposition(raw: string, fallback: string): string {
  const name = safeFileName(raw, fallback);
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\%]/g, '_');
  const encoded = encodeURIComponent(name).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

// SECURITY: the bytes are the sender's: never a type the browser would render (HTML, SVG) as a page of Skimmer's
// origin, never sniffed, never cached, and in a sandbox with no rights should anything display them anyway.
const downloadHeaders = {
  'content-type': 'application/octet-stream',
  'x-content-type-options': 'nosniff',
  'content-security-policy': "default-src 'none'; sandbox",
  'cache-control': 'no-store',
  'referrer-policy': 'no-referrer',
  'cross-origin-resource-policy': 'same-origin',
};

function refuse(res: ServerResponse, status: number, sentence: string): void {
  res.writeHead(status, {
    'content-type': 'text/plain; charset=utf-8',
    'cache-control': 'no-store',
    [errorHeader]: encodeURIComponent(sentence),
  });
  res.end(sentence);
}

const statusOf: Record<string, number> = { not_found: 404, invalid_request: 400, io: 502 };

function failed(res: ServerResponse, e: unknown, log: (e: unknown) => void): void {
  const failure = toFailure(e);
  if (!failure) log(e);
  if (res.headersSent) {
    res.destroy();
    return;
  }
  refuse(res, failure ? (statusOf[failure.code] ?? 500) : 500, failure?.message ?? 'The download failed.');
}

// The request's numbers, or null: positive integers of a sane size only.
function number(url: URL, name: string, min: number): number | null {
  const raw = url.searchParams.get(name);
  if (raw === null || !/^\d{1,9}$/.test(raw)) return null;
  const n = Number(raw);
  return n >= min ? n : null;
}

async function write(res: ServerResponse, bytes: Uint8Array): Promise<void> {
  for (let at = 0; at < bytes.length; at += pieceBytes) {
    if (res.destroyed) return;
    if (!res.write(bytes.subarray(at, at + pieceBytes))) {
      await new Promise<void>((resolve) => {
        const done = () => {
          res.off('drain', done);
          res.off('close', done);
          resolve();
        };
        res.on('drain', done);
        res.on('close', done);
      });
    }
  }
}

/** Answers a request under attachmentPath or attachmentsZipPath; the caller has checked host, method and session. */
export async function serveAttachment(
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  files: AttachmentStore,
  log: (e: unknown) => void,
): Promise<void> {
  // SECURITY: the cookie is SameSite=Strict, and a browser says where a request came from: only our own page (or
  // the person typing the address) may ask.
  const site = req.headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin' && site !== 'none') {
    return refuse(res, 403, 'Only Skimmer’s own page may download attachments.');
  }
  const message = number(url, 'message', 1);
  if (message === null) return refuse(res, 400, 'Which message? (message=N)');
  try {
    if (url.pathname === attachmentPath) {
      const index = number(url, 'index', 0);
      if (index === null) return refuse(res, 400, 'Which attachment? (index=N, from 0)');
      const part = await files.one(message, index);
      res.writeHead(200, {
        ...downloadHeaders,
        'content-length': part.content.length,
        'content-disposition': contentDisposition(part.name, `attachment-${index + 1}`),
      });
      if (req.method === 'HEAD') return void res.end();
      await write(res, part.content);
      return void res.end();
    }
    const list = files.list(message);
    if (list.length === 0) return refuse(res, 404, `Message ${message} has no attachments.`);
    if (req.method === 'HEAD') {
      // Read now, so a part that cannot be read is said before the download starts (and is cached for the GET).
      for (const a of list) await files.one(message, a.index);
      res.writeHead(200, { ...downloadHeaders, 'content-type': 'application/zip' });
      return void res.end();
    }
    await zipInto(res, message, list, files);
  } catch (e) {
    failed(res, e, log);
  }
}

// Every attachment of a message in one zip, stored as they are (attachments are mostly compressed already),
// each under a safe and distinct name; one part read at a time, each written as it is zipped.
async function zipInto(
  res: ServerResponse,
  message: number,
  list: readonly { index: number; name: string }[],
  files: AttachmentStore,
): Promise<void> {
  // The first part is read before the headers, so a message whose parts cannot be read is a refusal, not a
  // broken zip.
  const first = await files.one(message, list[0]?.index ?? 0);
  res.writeHead(200, {
    ...downloadHeaders,
    'content-type': 'application/zip',
    'content-disposition': contentDisposition(`message-${message}-attachments.zip`, 'attachments.zip'),
  });
  const pending: Uint8Array[] = [];
  const zip = new Zip((err, chunk) => {
    if (err) res.destroy(err);
    else pending.push(chunk);
  });
  const flush = async () => {
    while (pending.length > 0) await write(res, pending.shift() as Uint8Array);
  };
  const names = distinctNames(list.map((a) => a.name));
  for (const [k, a] of list.entries()) {
    const part = k === 0 ? first : await files.one(message, a.index);
    const entry = new ZipPassThrough(names[k] as string);
    zip.add(entry);
    for (let at = 0; at < part.content.length; at += pieceBytes) {
      entry.push(part.content.subarray(at, at + pieceBytes));
      await flush();
    }
    entry.push(new Uint8Array(0), true);
    await flush();
  }
  zip.end();
  await flush();
  res.end();
}
