import { describe, expect, test } from 'vitest';
import { waitingCalls, workerModule } from './worker-calls.ts';

describe('workerModule', () => {
  test('the .ts worker from source, the .js one beside a bundle', () => {
    expect(workerModule('file:///app/electron/reads/read-thread.ts', 'read-worker').href).toBe(
      'file:///app/electron/reads/read-worker.ts',
    );
    expect(workerModule('file:///app/dist-electron/main.js', 'read-worker').href).toBe(
      'file:///app/dist-electron/read-worker.js',
    );
  });
});

describe('waitingCalls', () => {
  test('each reply settles the call with its number, once; a reply for no call is dropped', async () => {
    const calls = waitingCalls<string>();
    const posted: number[] = [];
    const first = calls.call((seq) => posted.push(seq));
    const second = calls.call((seq) => posted.push(seq));
    expect(posted).toEqual([0, 1]);
    expect(calls.size).toBe(2);
    expect(calls.answer(1, { value: 'b' })).toBe(true);
    expect(calls.answer(1, { value: 'again' })).toBe(false);
    expect(calls.answer(0, { error: new Error('no') })).toBe(true);
    await expect(second).resolves.toBe('b');
    await expect(first).rejects.toThrow('no');
    expect(calls.size).toBe(0);
  });

  test('a call that cannot be posted fails alone; failAll fails the rest', async () => {
    const calls = waitingCalls<number, { tag: string }>();
    const waiting = calls.call(() => {}, { tag: 'kept' });
    const unsent = calls.call(() => {
      throw new Error('cannot move that buffer');
    });
    await expect(unsent).rejects.toThrow('cannot move that buffer');
    expect(calls.get(0)?.tag).toBe('kept');
    expect(calls.size).toBe(1);
    calls.failAll(new Error('The thread stopped.'));
    await expect(waiting).rejects.toThrow('The thread stopped.');
    expect(calls.get(0)).toBeUndefined();
  });
});
