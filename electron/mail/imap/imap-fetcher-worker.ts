// The fetcher thread (imap-fetcher.ts): its own IMAP connection downloads the batches the sync thread asks
// for, in the order asked, and hands each over as one transferred ArrayBuffer.
import { parentPort, workerData } from 'node:worker_threads';
import type { AccountLogin } from '../accounts.ts';
import {
  defaultTimeouts,
  type ImapTimeouts,
  imapClient,
  type MailErrorCode,
  MailFailure,
  mailFailure,
} from './imap-connect.ts';
import { fetchBatch, type PackedBatch, packBatch } from './imap-fetch.ts';

/** `timeouts`: imap-connect.ts's unless a test shortens them. */
export type FetcherData = { login: AccountLogin; known: string[]; timeouts?: ImapTimeouts };
export type FetchRequest = {
  id: number;
  path: string;
  /** The UIDVALIDITY the sync thread saw: uids of another one would name other messages. */
  uidValidity: number;
  uids: number[];
  /** Messages stored since the last request, as `size messageId` (imap-store.ts `knownKeys`). */
  learned: string[];
};
export type FetcherMessage =
  | { type: 'ready' }
  | { type: 'fetched'; id: number; batch: PackedBatch }
  | { type: 'failed'; id: number | null; code: MailErrorCode; message: string; retryable: boolean };

const port = parentPort;
if (port) {
  const { login, known: knownKeys, timeouts = defaultTimeouts } = workerData as FetcherData;
  const known = new Set(knownKeys);
  const where = `the mail server ${login.imap.host}`;
  const client = imapClient(login, timeouts);
  client.on('error', () => {});
  const fail = (id: number | null, e: unknown) => {
    const f = mailFailure(e, where);
    port.postMessage({
      type: 'failed',
      id,
      code: f.code,
      message: f.message,
      retryable: f.retryable,
    } satisfies FetcherMessage);
  };
  let open: { path: string; uidValidity: number } | null = null;
  const serve = async ({ id, path, uidValidity, uids, learned }: FetchRequest) => {
    for (const k of learned) known.add(k);
    if (open?.path !== path) {
      const box = await client.mailboxOpen(path, { readOnly: true });
      open = { path, uidValidity: Number(box.uidValidity) };
    }
    if (open.uidValidity !== uidValidity) {
      throw new MailFailure('io', `The folder ${path} changed on ${where} during the sync.`, true);
    }
    const batch = packBatch(await fetchBatch(client, uids, (mid, size) => known.has(`${size} ${mid}`)));
    port.postMessage({ type: 'fetched', id, batch } satisfies FetcherMessage, [batch.bytes]);
  };
  // One request after another: a folder is opened before its batches are fetched.
  let queue = Promise.resolve();
  // The connection is kept for the whole sync, and between two requests it may sit unused for longer than
  // the socket timeout (the sync thread going through folders with nothing new), after which imapflow ends
  // it and the next request would fail. A NOOP after half that time without a request keeps it open.
  let quiet: ReturnType<typeof setTimeout> | undefined;
  const keepAlive = () => {
    clearTimeout(quiet);
    quiet = setTimeout(() => {
      queue = queue.then(() => client.noop()).catch(() => {}); // a dead connection fails the next request
      keepAlive();
    }, timeouts.socketMs / 2);
  };
  client.connect().then(
    () => {
      port.postMessage({ type: 'ready' } satisfies FetcherMessage);
      keepAlive();
      port.on('message', (r: FetchRequest) => {
        keepAlive();
        queue = queue.then(() => serve(r)).catch((e: unknown) => fail(r.id, e));
      });
    },
    (e: unknown) => fail(null, e),
  );
}
