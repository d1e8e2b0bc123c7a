import { describe, expect, test } from 'vitest';
import { syncProgressPrinter } from './sync-progress.ts';

const at = (done: number, total = 2000, etaSeconds: number | null = 30) => ({
  folder: 'Inbox',
  done,
  total,
  perSecond: 100,
  etaSeconds,
});

describe('syncProgressPrinter', () => {
  test('lines on stderr: the start, at most one a second, and the last', () => {
    const out: string[] = [];
    const err: string[] = [];
    let t = 0;
    const print = syncProgressPrinter(false, { out: (l) => out.push(l), err: (l) => err.push(l) }, () => t);
    print(at(0, 2000, null));
    t = 400;
    print(at(50));
    t = 1200;
    print(at(250));
    t = 1300;
    print(at(2000, 2000, 0));
    print({ folder: 'Trash', done: 0, total: 0, perSecond: 0, etaSeconds: 0 });
    expect(out).toEqual([]);
    expect(err).toEqual([
      'Syncing Inbox: 0 of 2,000',
      'Syncing Inbox: 250 of 2,000 — about 30 s left',
      'Syncing Inbox: 2,000 of 2,000',
    ]);
  });

  test('--json: every event a line on stdout, nothing on stderr', () => {
    const out: string[] = [];
    const err: string[] = [];
    const print = syncProgressPrinter(true, { out: (l) => out.push(l), err: (l) => err.push(l) });
    print(at(50));
    print(at(51));
    expect(out.map((l) => JSON.parse(l))).toEqual([
      { type: 'sync_progress', ...at(50) },
      { type: 'sync_progress', ...at(51) },
    ]);
    expect(err).toEqual([]);
  });
});
