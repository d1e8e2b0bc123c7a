import { describe, expect, test } from 'vitest';
import { dispatch, type Handlers } from './dispatch.ts';
import { BridgeFailure } from './errors.ts';

const calls: unknown[] = [];
const handlers = {
  'mail:search': (r: unknown) => {
    calls.push(r);
    return [];
  },
  'mail:thread': () => {
    throw new BridgeFailure('not_found', 'That conversation is not in the mailbox.');
  },
  'mail:folders': () => {
    throw new Error('disk I/O error at /home/user/secret/path');
  },
} as unknown as Handlers;

describe('dispatch', () => {
  test('refuses an untrusted sender before parsing or running anything', async () => {
    calls.length = 0;
    const r = await dispatch(handlers, 'mail:search', { query: 'x' }, false);
    expect(r).toEqual({
      ok: false,
      error: { code: 'forbidden', message: 'This request did not come from Skimmer.' },
    });
    expect(calls).toEqual([]);
  });

  test('refuses an unknown channel, including prototype names', async () => {
    for (const name of ['mail:nope', '__proto__', 'constructor', 'toString']) {
      const r = await dispatch(handlers, name, {}, true);
      expect(r).toMatchObject({ ok: false, error: { code: 'invalid_request' } });
    }
  });

  test('parses the request with the channel schema: defaults applied, bad fields named, extra keys refused', async () => {
    calls.length = 0;
    expect(await dispatch(handlers, 'mail:search', { query: '  hi ' }, true)).toEqual({
      ok: true,
      value: [],
    });
    expect(calls).toEqual([{ query: 'hi', limit: 50, order: 'newest' }]);
    const bad = await dispatch(handlers, 'mail:search', { query: 'x', limit: 5000 }, true);
    expect(bad).toMatchObject({ ok: false, error: { code: 'invalid_request' } });
    expect(!bad.ok && bad.error.message).toContain('(limit)');
    const extra = await dispatch(handlers, 'mail:search', { query: 'x', sql: 'DROP' }, true);
    expect(extra).toMatchObject({ ok: false, error: { code: 'invalid_request' } });
    expect(calls).toHaveLength(1);
  });

  test('passes an expected failure through with its code and sentence', async () => {
    expect(await dispatch(handlers, 'mail:thread', { threadId: 1 }, true)).toEqual({
      ok: false,
      error: { code: 'not_found', message: 'That conversation is not in the mailbox.' },
    });
  });

  test('never returns the text of an unexpected exception, and reports it', async () => {
    const seen: unknown[] = [];
    const r = await dispatch(handlers, 'mail:folders', {}, true, (_c, e) => seen.push(e));
    expect(r).toMatchObject({ ok: false, error: { code: 'internal' } });
    expect(JSON.stringify(r)).not.toContain('secret');
    expect(seen).toHaveLength(1);
  });
});
