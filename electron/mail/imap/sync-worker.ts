// The worker thread that keeps one account in sync (issue 5: sync never blocks the UI). It has its own
// database connection, parse threads and IMAP connections (kept logged in between rounds: imap-session.ts),
// runs the sync loop, and tells the main thread what happened; the main thread can ask for a sync now (after a
// local change), name the folder the user has open (the wait for news IDLEs on it as well as on INBOX), or
// stop it, which closes every connection at once.
import { parentPort, workerData } from 'node:worker_threads';
import { openDatabase } from '../../db/open.ts';
import type { WriteTurn } from '../../db/write-turn.ts';
import type { AccountLogin } from '../accounts.ts';
import { readDirectMessage } from '../import/parse.ts';
import { createParsePool } from '../import/parse-pool.ts';
import { prepareWriteBack } from '../store/write-back.ts';
import { idleFolders } from './idle-folder.ts';
import { mailFailure } from './imap-connect.ts';
import { type FolderSeen, waitForChange } from './imap-idle.ts';
import { imapSession } from './imap-session.ts';
import { type SyncProgress, syncAccount } from './imap-sync.ts';
import { type LoopEvent, startSyncLoop } from './sync-loop.ts';

export type SyncWorkerData = {
  dbFile: string;
  login: AccountLogin;
  maxIdleMs?: number;
  /** The main thread's right of way to the write lock (db/write-turn.ts). */
  turn?: WriteTurn;
};
export type SyncWorkerMessage =
  | LoopEvent
  | { type: 'progress'; progress: SyncProgress }
  | { type: 'batch' }
  | { type: 'stopped' };
export type SyncWorkerCommand =
  | { type: 'sync-now' }
  | { type: 'focus'; path: string | null }
  | { type: 'stop' };

/** Runs the waiters together; the first to settle ends the others. */
async function firstOf(signal: AbortSignal, waiters: ((s: AbortSignal) => Promise<void>)[]): Promise<void> {
  const inner = new AbortController();
  const stop = () => inner.abort();
  signal.addEventListener('abort', stop, { once: true });
  try {
    await Promise.race(waiters.map((w) => w(inner.signal)));
  } finally {
    signal.removeEventListener('abort', stop);
    inner.abort();
  }
}

/** Resolves once `check()` holds, looking every `everyMs`, or when `signal` aborts. */
function until(check: () => boolean, everyMs: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setInterval(() => {
      if (check()) done();
    }, everyMs);
    const done = () => {
      clearInterval(timer);
      resolve();
    };
    signal.addEventListener('abort', done, { once: true });
  });
}

const port = parentPort;
if (port) {
  const data = workerData as SyncWorkerData;
  const db = openDatabase(data.dbFile, { batches: true });
  const pool = createParsePool(undefined, { readHere: readDirectMessage });
  const writeBack = prepareWriteBack(db);
  const controller = new AbortController();
  // Connection 0 syncs and then IDLEs on the first folder waited on (so an account with INBOX alone to wait on
  // keeps a single connection); connection 1 IDLEs on INBOX beside an open folder.
  const session = imapSession(data.login);
  controller.signal.addEventListener('abort', () => session.close(), { once: true });
  // What the last finished sync saw of each folder; a folder it did not see is gone from the server.
  let seen = new Map<string, FolderSeen>();
  // The folder the user has open (null: none); the wait is on INBOX alone when it is gone.
  let focus: string | null = null;
  const idlePaths = () => idleFolders(focus, seen);
  // Ends the IDLE in progress so that it starts again on the newly focused folder.
  let refocus: AbortController | null = null;

  // IDLE on the focused folder and INBOX until the server reports news there; a change of focus moves the IDLE
  // (without a sync: the new folder's counts are compared with what the last sync saw, which catches what came
  // since).
  async function idleOnFocus(signal: AbortSignal): Promise<void> {
    for (;;) {
      const moved = new AbortController();
      refocus = moved;
      try {
        await waitForChange(session, AbortSignal.any([signal, moved.signal]), {
          paths: idlePaths(),
          ...(data.maxIdleMs === undefined ? {} : { maxWaitMs: data.maxIdleMs }),
          seen: (path) => seen.get(path) ?? null,
        });
      } catch (e) {
        if (!moved.signal.aborted || signal.aborted) throw e;
      } finally {
        refocus = null;
      }
      if (!moved.signal.aborted || signal.aborted) return;
    }
  }

  const post = (m: SyncWorkerMessage) => port.postMessage(m);
  const loop = startSyncLoop({
    signal: controller.signal,
    onEvent: post,
    sync: async () => {
      const round = new Map<string, FolderSeen>();
      try {
        const summary = await syncAccount(db, data.login, {
          connection: await session.connection(0),
          parse: pool.parse,
          signal: controller.signal,
          onProgress: (progress) => post({ type: 'progress', progress }),
          onBatch: () => post({ type: 'batch' }),
          onFolderSeen: (path, counts) => round.set(path, counts),
          ...(data.turn ? { turn: data.turn } : {}),
        });
        seen = round;
        return summary;
      } catch (e) {
        throw mailFailure(e, `the mail server ${data.login.imap.host}`);
      }
    },
    // The server's news (IDLE) or a local change waiting to be pushed, whichever comes first: the queue is
    // looked at every 2 s, whoever wrote to it (the app, a tool, the CLI).
    waitForChange: (signal) =>
      firstOf(signal, [
        idleOnFocus,
        (s) => until(() => writeBack.pending(data.login.id).length > 0, 2000, s),
      ]),
    sleep: (ms, signal) =>
      new Promise<void>((resolve) => {
        const t = setTimeout(resolve, ms);
        signal.addEventListener('abort', () => {
          clearTimeout(t);
          resolve();
        });
      }),
  });
  port.on('message', (c: SyncWorkerCommand) => {
    if (c.type === 'sync-now') loop.wake();
    else if (c.type === 'focus') {
      const before = JSON.stringify(idlePaths());
      focus = c.path;
      if (JSON.stringify(idlePaths()) !== before) refocus?.abort();
    } else controller.abort();
  });
  void loop.done.finally(async () => {
    // Also when the loop ended on its own (a refused password): a connection still in IDLE would keep the
    // thread alive.
    session.close();
    await pool.close();
    db.close();
    post({ type: 'stopped' });
    port.close();
  });
}
