// The fetcher (issue 5: the first sync limited by the server, not by Skimmer): a second thread with its own
// IMAP connection downloads the batches of new messages and decodes imapflow's answers, while the sync
// thread reads and stores the batch before (bench/README.md). It is started for a folder with more new mail
// than the first batch; a server that refuses the second connection leaves the fetching to the sync thread's
// own connection, as before. Closing it (Stop, the sync ending, the sync worker terminating) ends the thread.
import { Worker } from 'node:worker_threads';
import { waitingCalls, workerModule } from '../../worker-calls.ts';
import type { AccountLogin } from '../accounts.ts';
import { MailFailure } from './imap-connect.ts';
import { type FetchedMessage, unpackBatch } from './imap-fetch.ts';
import type { FetcherData, FetcherMessage, FetchRequest } from './imap-fetcher-worker.ts';

export type Fetcher = {
  /** One batch of `path`, whose UIDVALIDITY the sync saw as `uidValidity`; batches come back in order. */
  fetch(path: string, uidValidity: number, uids: number[], learned: string[]): Promise<FetchedMessage[]>;
  close(): Promise<void>;
};

const workerUrl = workerModule(import.meta.url, 'imap-fetcher-worker');

/**
 * A connected fetcher, or null when its connection could not be opened (the caller fetches itself then).
 * `known` is every message already stored, as `size messageId`: their text is not downloaded again.
 */
export function startFetcher(login: AccountLogin, known: string[]): Promise<Fetcher | null> {
  let worker: Worker;
  try {
    worker = new Worker(workerUrl, { name: 'fetcher', workerData: { login, known } satisfies FetcherData });
  } catch {
    return Promise.resolve(null);
  }
  const waiting = waitingCalls<FetchedMessage[]>();
  let gone: MailFailure | null = null;
  const end = (why: MailFailure) => {
    gone ??= why;
    waiting.failAll(why);
  };
  const fetcher: Fetcher = {
    fetch(path, uidValidity, uids, learned) {
      if (gone) return Promise.reject(gone);
      return waiting.call((id) =>
        worker.postMessage({ id, path, uidValidity, uids, learned } satisfies FetchRequest),
      );
    },
    async close() {
      end(new MailFailure('cancelled', 'The sync was stopped.', false));
      await worker.terminate();
    },
  };
  return new Promise((resolve) => {
    worker.on('message', (m: FetcherMessage) => {
      if (m.type === 'ready') resolve(fetcher);
      else if (m.type === 'fetched') {
        if (waiting.get(m.id)) waiting.answer(m.id, { value: unpackBatch(m.batch) });
      } else if (m.id === null) {
        // The second connection was refused (a limit on connections, say): no fetcher.
        void worker.terminate();
        resolve(null);
      } else waiting.answer(m.id, { error: new MailFailure(m.code, m.message, m.retryable) });
    });
    worker.on('error', () => {}); // followed by 'exit'
    worker.once('exit', () => {
      resolve(null);
      end(new MailFailure('io', 'The thread that downloads new mail stopped.', true));
    });
  });
}
