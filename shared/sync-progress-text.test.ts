import { describe, expect, test } from 'vitest';
import { syncProgressText, timeLeftText } from './sync-progress-text.ts';

describe('syncProgressText', () => {
  test('counts and the time left', () => {
    expect(syncProgressText({ folder: 'Inbox', done: 1200, total: 20_000, etaSeconds: 130 }, 'en-US')).toBe(
      'Syncing Inbox: 1,200 of 20,000 — about 2 min left',
    );
  });

  test('no time left before a rate, nor once done; nothing to download is the folder alone', () => {
    expect(syncProgressText({ folder: 'Inbox', done: 0, total: 500, etaSeconds: null }, 'en-US')).toBe(
      'Syncing Inbox: 0 of 500',
    );
    expect(syncProgressText({ folder: 'Inbox', done: 500, total: 500, etaSeconds: 0 }, 'en-US')).toBe(
      'Syncing Inbox: 500 of 500',
    );
    expect(syncProgressText({ folder: 'Sent', done: 0, total: 0, etaSeconds: 0 })).toBe('Syncing Sent…');
  });

  test("a server's folder name loses terminal escapes and direction controls", () => {
    const folder = 'Work\u001b[2J\u202eevil\u0007';
    expect(syncProgressText({ folder, done: 0, total: 0, etaSeconds: null })).toBe('Syncing Work[2Jevil…');
  });

  test('time left reads as a person would say it', () => {
    expect(timeLeftText(3)).toBe('a few seconds left');
    expect(timeLeftText(11)).toBe('about 10 s left');
    expect(timeLeftText(36)).toBe('about 40 s left');
    expect(timeLeftText(56)).toBe('about 1 min left');
    expect(timeLeftText(60)).toBe('about 1 min left');
    expect(timeLeftText(89 * 60)).toBe('about 89 min left');
    expect(timeLeftText(2 * 3600 + 1000)).toBe('about 2.3 h left');
  });
});
