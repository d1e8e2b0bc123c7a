import { describe, expect, test } from 'vitest';
import { MailFailure } from './imap-connect.ts';
import type { SyncSummary } from './imap-sync.ts';
import { backoffMs, type LoopEvent, startSyncLoop } from './sync-loop.ts';

const ok: SyncSummary = {
  folders: 1,
  messages: 1,
  added: 0,
  linked: 0,
  removed: 0,
  flagsChanged: 0,
  pushed: 0,
  newMail: { firstSync: false, count: 0, latest: [] },
};
const lost = () => new MailFailure('transport', 'The connection was lost.', true);
const refused = () => new MailFailure('unauthorized', 'Refused.', false);

function harness(outcomes: (() => SyncSummary | MailFailure)[]) {
  const controller = new AbortController();
  const events: LoopEvent[] = [];
  const slept: number[] = [];
  let changeWaits = 0;
  let release: (() => void) | null = null;
  const loop = startSyncLoop({
    signal: controller.signal,
    onEvent: (e) => events.push(e),
    sync: async () => {
      const next = outcomes.shift();
      if (!next) {
        controller.abort();
        return ok;
      }
      const r = next();
      if (r instanceof MailFailure) throw r;
      return r;
    },
    sleep: async (ms) => {
      slept.push(ms);
    },
    waitForChange: (signal) => {
      changeWaits += 1;
      return new Promise<void>((resolve) => {
        release = resolve;
        signal.addEventListener('abort', () => resolve(), { once: true });
      });
    },
  });
  return { loop, events, slept, controller, changeWaits: () => changeWaits, change: () => release?.() };
}

describe('the sync loop', () => {
  test('backs off 1 s, 2 s, 4 s … up to 60 s while the server is unreachable, then carries on', async () => {
    const h = harness([lost, lost, lost, () => ok]);
    await new Promise((r) => setTimeout(r, 10));
    expect(h.slept).toEqual([1000, 2000, 4000]);
    expect(h.events.map((e) => e.type)).toEqual(['failed', 'failed', 'failed', 'synced']);
    expect(backoffMs(10)).toBe(60_000);
    h.controller.abort();
    await h.loop.done;
  });

  test('stops on a refused password instead of retrying', async () => {
    const h = harness([refused, () => ok]);
    await h.loop.done;
    expect(h.events).toEqual([
      { type: 'failed', code: 'unauthorized', message: 'Refused.', retryInMs: null },
    ]);
    expect(h.slept).toEqual([]);
  });

  test('waits for a change after a sync, and syncs again when the server reports one or wake() is called', async () => {
    const h = harness([() => ok, () => ok, () => ok]);
    await new Promise((r) => setTimeout(r, 10));
    expect(h.events).toHaveLength(1);
    expect(h.changeWaits()).toBe(1);
    h.change();
    await new Promise((r) => setTimeout(r, 10));
    expect(h.events).toHaveLength(2);
    h.loop.wake();
    await new Promise((r) => setTimeout(r, 10));
    expect(h.events).toHaveLength(3);
    h.controller.abort();
    await h.loop.done;
  });
});
