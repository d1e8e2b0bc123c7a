import { describe, expect, test } from 'vitest';
import { folderProgress } from './sync-progress.ts';

describe('folderProgress', () => {
  test('no time left is guessed before a batch is stored', () => {
    let t = 0;
    const at = folderProgress('Inbox', 20_000, () => t);
    t = 3000;
    expect(at(0)).toEqual({ folder: 'Inbox', done: 0, total: 20_000, perSecond: 0, etaSeconds: null });
  });

  test('time left from the rate so far', () => {
    let t = 1_000_000;
    const at = folderProgress('Inbox', 20_000, () => t);
    t += 2000;
    expect(at(1200)).toMatchObject({ done: 1200, perSecond: 600, etaSeconds: 32 }); // 18,800 at 600/s
    t += 8000;
    expect(at(2000)).toMatchObject({ perSecond: 200, etaSeconds: 90 }); // the rate fell: more time left
  });

  test('the rate is the last 10 s or so, not since the start: a sync that sped up says so', () => {
    let t = 0;
    const at = folderProgress('Inbox', 20_000, () => t);
    t = 10_000;
    expect(at(1000)).toMatchObject({ perSecond: 100 }); // a slow start: 100/s
    t = 15_000;
    expect(at(4000)).toMatchObject({ perSecond: 267 }); // 4,000 in 15 s: still the whole window
    t = 21_000;
    // From the sample at 10 s on: 6,000 in 11 s, not 7,000 in 21 s (333/s).
    expect(at(7000)).toMatchObject({ perSecond: 545, etaSeconds: 24 });
  });

  test('nothing left is zero seconds, also for an empty download', () => {
    const at = folderProgress('Sent', 0, () => 5);
    expect(at(0)).toMatchObject({ etaSeconds: 0, perSecond: 0 });
    let t = 0;
    const full = folderProgress('Inbox', 50, () => t);
    t = 500;
    expect(full(50)).toMatchObject({ etaSeconds: 0, perSecond: 100 });
  });
});
