import { describe, expect, test } from 'vitest';
import { redact } from '../protocol/redact.ts';
import { argsHash, newCallId } from './call-ids.ts';

describe('newCallId', () => {
  test('names a call sc- and ten characters that are easy to type', () => {
    expect(newCallId(new Set())).toMatch(/^sc-[a-km-np-z2-9]{10}$/);
  });

  test('is not shaped like a key, so the audit log keeps it as it is', () => {
    const id = newCallId(new Set());
    expect(redact(`call ${id}`)).toBe(`call ${id}`);
  });

  test('never gives an id that is already taken in the conversation', () => {
    const taken = new Set<string>();
    for (let i = 0; i < 2000; i += 1) taken.add(newCallId(taken));
    expect(taken.size).toBe(2000);
  });
});

describe('argsHash', () => {
  test('is the same for the same arguments whatever the order of their keys', () => {
    expect(argsHash({ to: ['a@x.example'], body: 'hi', n: { b: 1, a: 2 } })).toBe(
      argsHash({ n: { a: 2, b: 1 }, body: 'hi', to: ['a@x.example'] }),
    );
  });

  test.each([
    [{ ids: [3] }, { ids: [4] }],
    [{ to: ['a@x.example'] }, { to: ['a@x.example', 'b@x.example'] }],
    [{ body: 'hi' }, { body: 'hi ' }],
    [{ a: '1' }, { a: 1 }],
    [{}, []],
    [{ a: null }, {}],
  ])('differs when the arguments differ: %j and %j', (a, b) => {
    expect(argsHash(a)).not.toBe(argsHash(b));
  });

  test('is 64 hex digits, the shape the bridge accepts', () => {
    expect(argsHash({ ids: [1] })).toMatch(/^[0-9a-f]{64}$/);
  });
});
