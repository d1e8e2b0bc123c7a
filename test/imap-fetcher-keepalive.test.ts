// The fetcher thread's connection while it waits for the sync thread's next request (issue 5), against a real
// Dovecot: the sync keeps it for the whole run, across folders, so it may sit unused for longer than the socket
// timeout (imap-connect.ts, 120 s; 1 s here) and must still serve the next request.
import { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { FetcherData, FetcherMessage, FetchRequest } from '../electron/mail/imap/imap-fetcher-worker.ts';
import { type Dovecot, loginFor, startDovecot } from './support/dovecot.ts';
import { eml } from './support/temp.ts';

let server: Dovecot;
let uidValidity = 0;

beforeAll(async () => {
  server = await startDovecot();
  await server.append(
    'INBOX',
    [1, 2].map((i) => eml({ id: `<k${i}@example.com>`, subject: `Kept ${i}` })),
  );
  const c = await server.client();
  try {
    uidValidity = Number((await c.mailboxOpen('INBOX', { readOnly: true })).uidValidity);
  } finally {
    await c.logout();
  }
});

afterAll(async () => {
  await server?.stop();
});

test('a fetcher left waiting longer than its socket timeout still serves the next request', async () => {
  const data: FetcherData = {
    login: loginFor(server, 1),
    known: [],
    timeouts: { connectMs: 10_000, greetingMs: 10_000, socketMs: 1000 },
  };
  const worker = new Worker(new URL('../electron/mail/imap/imap-fetcher-worker.ts', import.meta.url), {
    workerData: data,
  });
  const answers: FetcherMessage[] = [];
  const answered = (n: number) => expect.poll(() => answers.length).toBeGreaterThanOrEqual(n);
  worker.on('message', (m: FetcherMessage) => answers.push(m));
  const ask = (id: number, uids: number[]) =>
    worker.postMessage({ id, path: 'INBOX', uidValidity, uids, learned: [] } satisfies FetchRequest);
  try {
    await answered(1);
    expect(answers[0]).toEqual({ type: 'ready' });
    ask(1, [1]);
    await answered(2);
    // More than twice the socket timeout without a request, as between two folders of a long sync.
    await new Promise((r) => setTimeout(r, 2500));
    ask(2, [2]);
    await answered(3);
    // A failed answer is shown whole (its code and sentence).
    const got = answers
      .slice(1)
      .map((a) => (a.type === 'fetched' ? { id: a.id, bytes: a.batch.bytes.byteLength > 0 } : a));
    expect(got).toEqual([
      { id: 1, bytes: true },
      { id: 2, bytes: true },
    ]);
  } finally {
    await worker.terminate();
  }
});
