import { describe, expect, test } from 'vitest';
import { type AccountStatus, type LiveStatus, progressText, statusLine } from './account-status.ts';

const account = { syncedAt: null, lastError: null };
const at = 1_000_000;
const live = (patch: Partial<AccountStatus>): LiveStatus => ({
  at,
  status: {
    type: 'account_status',
    accountId: 1,
    state: 'syncing',
    message: null,
    retryInSeconds: null,
    changed: false,
    progress: null,
    summary: null,
    ...patch,
  },
});
const time = (ms: number) => `at ${ms}`;

describe('the status line of an account', () => {
  test('counts the folder being synced', () => {
    const p = { folder: 'Inbox', done: 150, total: 5000, perSecond: 50, etaSeconds: 97 };
    expect(progressText(p)).toBe(`Syncing Inbox: 150 of ${(5000).toLocaleString()} — about 2 min left`);
    expect(progressText({ ...p, etaSeconds: null })).toBe(`Syncing Inbox: 150 of ${(5000).toLocaleString()}`);
    expect(progressText({ ...p, folder: 'Archive', done: 0, total: 0 })).toBe('Syncing Archive…');
  });

  test('strips direction controls from a folder name the server chose', () => {
    const p = { folder: 'Inbox\u202e', done: 1, total: 2, perSecond: 0, etaSeconds: null };
    expect(progressText(p)).toBe('Syncing Inbox: 1 of 2');
  });

  test('says up to date after a round', () => {
    expect(statusLine(account, live({ state: 'synced' }), at, time)).toEqual({
      text: 'Up to date',
      tone: 'ok',
    });
  });

  test('counts down to the next try', () => {
    const retrying = live({ state: 'retrying', retryInSeconds: 8, message: 'The server did not answer.' });
    expect(statusLine(account, retrying, at, time).text).toBe('Retrying in 8 s: The server did not answer.');
    expect(statusLine(account, retrying, at + 2500, time).text).toBe(
      'Retrying in 6 s: The server did not answer.',
    );
    expect(statusLine(account, retrying, at + 9000, time).text).toBe(
      'Retrying now: The server did not answer.',
    );
  });

  test('a refused password stops the sync, and the reason stays after the worker ends', () => {
    const refused = 'The mail server refused the user name or password.';
    expect(statusLine(account, live({ state: 'failed', message: refused }), at, time).text).toBe(
      `Stopped: ${refused}`,
    );
    expect(statusLine({ ...account, lastError: refused }, live({ state: 'stopped' }), at, time).text).toBe(
      `Stopped: ${refused}`,
    );
    expect(statusLine(account, live({ state: 'stopped' }), at, time).text).toBe('Not syncing');
  });

  test('without a live status, the account’s record speaks', () => {
    expect(statusLine(account, null, at, time).text).toBe('Not synced yet');
    expect(statusLine({ syncedAt: 5, lastError: null }, null, at, time).text).toBe('Synced at 5');
    expect(statusLine({ syncedAt: 5, lastError: 'No route.' }, null, at, time).text).toBe(
      'Last sync failed: No route.',
    );
  });
});
