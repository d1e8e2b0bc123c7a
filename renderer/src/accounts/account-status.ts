// How an account's sync stands, as one line in the Accounts dialog: "Syncing Inbox: 150 of 5,000 — about 2 min
// left", "Up to
// date", "Retrying in 8 s: …", "Stopped: the server refused the password". The live word comes from the
// background sync (`account:watch`); without one (a desktop that has not reported yet) the account's own
// record says when it last synced or what went wrong. Folder names and messages come from the mail server
// and Skimmer's sentences, and are shown as text. Pure; tested in account-status.test.ts.
import type { AccountView, StreamEvent } from '../../../shared/contract/index.ts';
import { syncProgressText } from '../../../shared/sync-progress-text.ts';

export type AccountStatus = Extract<StreamEvent, { type: 'account_status' }>;
export type SyncProgress = NonNullable<AccountStatus['progress']>;
// A status as the page received it: `at` (epoch ms) lets a retry count down.
export type LiveStatus = { status: AccountStatus; at: number };
type StatusTone = 'busy' | 'ok' | 'warning' | 'idle';
export type StatusLine = { text: string; tone: StatusTone };

// The folder list's and the CLI's sentence, with the time left (shared/sync-progress-text.ts).
export const progressText = (p: SyncProgress): string => syncProgressText(p);

/** Whole seconds left until `at + seconds`, never below zero. */
function secondsLeft(at: number, seconds: number, now: number): number {
  return Math.max(0, Math.ceil((at + seconds * 1000 - now) / 1000));
}

export function statusLine(
  account: Pick<AccountView, 'syncedAt' | 'lastError'>,
  live: LiveStatus | null,
  now: number,
  formatTime: (epochMs: number) => string,
): StatusLine {
  const status = live?.status;
  const reason = status?.message ?? account.lastError;
  switch (status?.state) {
    case 'syncing':
      return { text: status.progress ? progressText(status.progress) : 'Syncing…', tone: 'busy' };
    case 'synced':
      return { text: 'Up to date', tone: 'ok' };
    case 'retrying': {
      const left = secondsLeft(live?.at ?? now, status.retryInSeconds ?? 0, now);
      const when = left > 0 ? `Retrying in ${left} s` : 'Retrying now';
      return { text: reason ? `${when}: ${reason}` : when, tone: 'warning' };
    }
    // The loop gives up only on what retrying cannot fix (a refused password); after it the worker reports
    // `stopped` with no message, so the reason comes from the account's record.
    case 'failed':
    case 'stopped':
      return reason ? { text: `Stopped: ${reason}`, tone: 'warning' } : { text: 'Not syncing', tone: 'idle' };
    default:
      if (account.lastError) return { text: `Last sync failed: ${account.lastError}`, tone: 'warning' };
      if (account.syncedAt !== null) return { text: `Synced ${formatTime(account.syncedAt)}`, tone: 'idle' };
      return { text: 'Not synced yet', tone: 'idle' };
  }
}
