import { describe, expect, test } from 'vitest';
import {
  closeAll,
  closedThread,
  initiallyOpen,
  openAll,
  setOpen,
  syncOpenState,
} from './thread-open-state.ts';

const read = (id: number) => ({ id, unread: false });
const unread = (id: number) => ({ id, unread: true });

describe('which messages start open', () => {
  test('a read thread opens only its last message', () => {
    expect([...initiallyOpen([read(1), read(2), read(3)])]).toEqual([3]);
  });

  test('unread messages open wherever they are, and the last one too', () => {
    expect([...initiallyOpen([read(1), unread(2), read(3), unread(4), read(5)])].sort()).toEqual([2, 4, 5]);
  });

  test('a single message is open', () => {
    expect([...initiallyOpen([read(7)])]).toEqual([7]);
  });

  test('an empty thread opens nothing', () => {
    expect(initiallyOpen([]).size).toBe(0);
  });
});

describe('keeping the choice while the thread stays open', () => {
  test('marking the thread read on open does not collapse what started open', () => {
    const opened = syncOpenState(closedThread, 10, [read(1), unread(2), unread(3)]);
    const reloaded = syncOpenState(opened, 10, [read(1), read(2), read(3)]);
    expect([...reloaded.open].sort()).toEqual([2, 3]);
    expect(reloaded).toBe(opened);
  });

  test('another thread starts over', () => {
    const first = setOpen(syncOpenState(closedThread, 10, [read(1), read(2)]), 1, true);
    const second = syncOpenState(first, 11, [read(5), read(6)]);
    expect([...second.open]).toEqual([6]);
    expect(second.known.has(1)).toBe(false);
  });

  test('a reply that arrives opens, the previous last keeps its state, choices made stay', () => {
    let state = syncOpenState(closedThread, 10, [read(1), read(2)]);
    state = setOpen(state, 1, true);
    state = syncOpenState(state, 10, [read(1), read(2), unread(3)]);
    expect([...state.open].sort()).toEqual([1, 2, 3]);
  });

  test('expand all opens every message and collapse all closes every one', () => {
    const state = syncOpenState(closedThread, 10, [read(1), read(2), read(3)]);
    expect([...openAll(state).open].sort()).toEqual([1, 2, 3]);
    expect(closeAll(openAll(state)).open.size).toBe(0);
  });

  test('setOpen opens and closes one message', () => {
    const state = syncOpenState(closedThread, 10, [read(1), read(2)]);
    expect(setOpen(state, 1, true).open.has(1)).toBe(true);
    expect(setOpen(state, 2, false).open.has(2)).toBe(false);
  });
});
