// The background sync of every account while the app runs (issue 5): one worker per account
// (sync-job.ts), started at launch and when an account is added, stopped when it is removed or the app
// closes. What each reports is turned into `account_status` events for the pages that watch. The folder the
// page shows is passed to its account's worker, which waits for news on it instead of INBOX.
import type { StreamEvent } from '../../../shared/contract/index.ts';
import type { WriteTurn } from '../../db/write-turn.ts';
import type { Log } from '../../log.ts';
import type { Accounts } from '../accounts.ts';
import { type SyncJob, startSyncJob } from './sync-job.ts';
import type { SyncWorkerMessage } from './sync-worker.ts';

type Status = Extract<StreamEvent, { type: 'account_status' }>;

export function prepareAccountSync(deps: {
  dbFile: string;
  accounts: Accounts;
  log: Log;
  /** The main thread's right of way to the write lock (db/write-turn.ts). */
  turn?: WriteTurn;
}) {
  const jobs = new Map<number, SyncJob>();
  const latest = new Map<number, Status>();
  const watchers = new Set<(e: Status) => void>();
  // The folder the page last opened, if it is an IMAP account's (the last page to open one wins).
  let focused: { accountId: number; path: string } | null = null;
  const focusOf = (accountId: number) => (focused?.accountId === accountId ? focused.path : null);

  const report = (e: Status) => {
    latest.set(e.accountId, e);
    for (const w of watchers) w(e);
  };

  // A worker that had to be terminated was stuck in a network call past Stop: worth a line in the log.
  const stopJob = async (accountId: number, job: SyncJob) => {
    await job.stop();
    if (job.terminated) deps.log.info('account_sync_terminated', { accountId });
  };

  const relay = (accountId: number) => (m: SyncWorkerMessage) => {
    const base = {
      type: 'account_status' as const,
      accountId,
      retryInSeconds: null,
      changed: false,
      progress: null,
      summary: null,
    };
    switch (m.type) {
      case 'progress':
        return report({ ...base, state: 'syncing', message: null, progress: m.progress });
      case 'batch':
        return report({ ...base, state: 'syncing', message: null, changed: true });
      case 'synced': {
        const s = m.summary;
        deps.accounts.synced(accountId, Date.now(), null);
        const changed = s.added + s.linked + s.removed + s.flagsChanged + s.pushed > 0;
        return report({ ...base, state: 'synced', message: null, changed, summary: s });
      }
      case 'failed':
        deps.accounts.synced(accountId, null, m.message);
        return report({
          ...base,
          state: m.retryInMs === null ? 'failed' : 'retrying',
          message: m.message,
          retryInSeconds: m.retryInMs === null ? null : Math.ceil(m.retryInMs / 1000),
        });
      case 'stopped':
        jobs.delete(accountId);
        return report({ ...base, state: 'stopped', message: null });
    }
  };

  return {
    async start(accountId: number): Promise<void> {
      if (jobs.has(accountId)) return;
      const login = await deps.accounts.login(accountId);
      const job = startSyncJob(deps.dbFile, login, relay(accountId), deps.turn ? { turn: deps.turn } : {});
      jobs.set(accountId, job);
      const path = focusOf(accountId);
      if (path !== null) job.focus(path);
    },
    async startAll(): Promise<void> {
      for (const a of deps.accounts.list()) {
        await this.start(a.id).catch((e: unknown) => deps.log.error('account_sync_start', e));
      }
    },
    running: (accountId: number): boolean => jobs.has(accountId),
    syncNow: (accountId: number): void => jobs.get(accountId)?.syncNow(),
    /** Waits on this folder of its account (every other account on INBOX); true when its sync runs. */
    focus(target: { accountId: number; path: string } | null): boolean {
      focused = target;
      for (const [id, job] of jobs) job.focus(focusOf(id));
      return target !== null && jobs.has(target.accountId);
    },
    async stop(accountId: number): Promise<void> {
      const job = jobs.get(accountId);
      if (job) await stopJob(accountId, job);
      jobs.delete(accountId);
    },
    async stopAll(): Promise<void> {
      await Promise.all([...jobs].map(([id, job]) => stopJob(id, job)));
      jobs.clear();
    },
    /** Every status from now on, starting with the last one of each account. */
    watch(onStatus: (e: Status) => void): () => void {
      for (const s of latest.values()) onStatus(s);
      watchers.add(onStatus);
      return () => watchers.delete(onStatus);
    },
  };
}

export type AccountSync = ReturnType<typeof prepareAccountSync>;
