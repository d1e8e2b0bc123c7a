// Keeping an account in sync while the app runs (issue 5): sync, then wait for the server to say something
// changed (IDLE on the open folder and INBOX) or for a local change to push, and sync again. A dropped
// connection or a server that is down is retried with backoff (1 s doubling to 60 s); a refused password
// stops the loop until the user fixes it, since retrying would only lock the account. Pure apart from what
// is injected.
import type { MailFailure } from './imap-connect.ts';
import type { SyncSummary } from './imap-sync.ts';

export type LoopEvent =
  | { type: 'synced'; summary: SyncSummary }
  | { type: 'failed'; code: MailFailure['code']; message: string; retryInMs: number | null };

export type LoopDeps = {
  sync: () => Promise<SyncSummary>;
  /** Resolves when the server reports a change, after `maxWaitMs`, or at once when `wake` fires. */
  waitForChange: (signal: AbortSignal) => Promise<void>;
  sleep: (ms: number, signal: AbortSignal) => Promise<void>;
  onEvent: (e: LoopEvent) => void;
  signal: AbortSignal;
};

export const backoffMs = (failures: number) => Math.min(60_000, 1000 * 2 ** Math.max(0, failures - 1));

/** Runs until `signal` aborts or the server refuses the login. `wake()` makes the next sync start now. */
export function startSyncLoop(deps: LoopDeps): { wake: () => void; done: Promise<void> } {
  let waiting: AbortController | null = null;
  let wakeRequested = false;
  const wake = () => {
    wakeRequested = true;
    waiting?.abort();
  };

  async function pause(wait: (signal: AbortSignal) => Promise<void>): Promise<void> {
    if (wakeRequested) return;
    waiting = new AbortController();
    const stop = () => waiting?.abort();
    deps.signal.addEventListener('abort', stop, { once: true });
    try {
      await wait(waiting.signal);
    } catch {
      // Woken, stopped, or the IDLE connection dropped: in every case the next step is a sync.
    } finally {
      deps.signal.removeEventListener('abort', stop);
      waiting = null;
    }
  }

  async function run(): Promise<void> {
    let failures = 0;
    while (!deps.signal.aborted) {
      wakeRequested = false;
      try {
        const summary = await deps.sync();
        failures = 0;
        deps.onEvent({ type: 'synced', summary });
        await pause(deps.waitForChange);
      } catch (e) {
        if (deps.signal.aborted) return;
        const failure = e as MailFailure;
        if (!failure.retryable) {
          deps.onEvent({ type: 'failed', code: failure.code, message: failure.message, retryInMs: null });
          return;
        }
        failures += 1;
        const wait = backoffMs(failures);
        deps.onEvent({ type: 'failed', code: failure.code, message: failure.message, retryInMs: wait });
        await pause((signal) => deps.sleep(wait, signal));
      }
    }
  }

  return { wake, done: run() };
}
