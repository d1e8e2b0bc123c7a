import { describe, expect, test } from 'vitest';
import { channelNames, type StreamMessage } from '../shared/contract/index.ts';
import { buildPreloadApi, streamChannel } from './preload-api.ts';

function fakeIpc() {
  const invoked: [string, unknown][] = [];
  const listeners = new Map<string, Set<(e: unknown, m: StreamMessage) => void>>();
  return {
    invoked,
    listeners,
    invoke: async (channel: string, request: unknown) => {
      invoked.push([channel, request]);
      return { ok: true, value: null };
    },
    on(channel: string, l: (e: unknown, m: StreamMessage) => void) {
      if (!listeners.has(channel)) listeners.set(channel, new Set());
      listeners.get(channel)?.add(l);
    },
    removeListener(channel: string, l: (e: unknown, m: StreamMessage) => void) {
      listeners.get(channel)?.delete(l);
    },
    emit(m: StreamMessage) {
      for (const l of listeners.get(streamChannel) ?? [])
        l({ sender: 'IpcRendererEvent', senderFrame: {} }, m);
    },
  };
}

describe('preload surface (checklist 20)', () => {
  test('exposes exactly the contract channels plus subscribe, frozen', () => {
    const api = buildPreloadApi(fakeIpc());
    expect(Object.keys(api).sort()).toEqual([...channelNames, 'subscribe'].sort());
    expect(Object.isFrozen(api)).toBe(true);
    expect(api).not.toHaveProperty('invoke');
    expect(api).not.toHaveProperty('send');
  });

  test('each function calls its own channel only', async () => {
    const ipc = fakeIpc();
    const api = buildPreloadApi(ipc) as Record<string, (r: unknown) => Promise<unknown>>;
    await api['mail:search']?.({ query: 'x' });
    expect(ipc.invoked).toEqual([['mail:search', { query: 'x' }]]);
  });

  test('subscribers get the event payload for their stream only, never the IPC event', () => {
    const ipc = fakeIpc();
    const api = buildPreloadApi(ipc) as { subscribe: (id: string, cb: (e: unknown) => void) => () => void };
    const got: unknown[][] = [];
    const off = api.subscribe('s1', (...args) => got.push(args));
    const event = { type: 'error', error: { code: 'io', message: 'x' } } as const;
    ipc.emit({ streamId: 's2', event });
    ipc.emit({ streamId: 's1', event });
    expect(got).toEqual([[event]]);
    off();
    ipc.emit({ streamId: 's1', event });
    expect(got).toHaveLength(1);
    expect(ipc.listeners.get(streamChannel)?.size).toBe(0);
  });
});
