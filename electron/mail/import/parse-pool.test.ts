import { describe, expect, test } from 'vitest';
import { eml } from '../../../test/support/temp.ts';
import { ParseError, parseMessage } from './parse.ts';
import { createParsePool } from './parse-pool.ts';

describe('parse pool', () => {
  test('parses on its threads with the same result as parseMessage, and passes reasons through', async () => {
    const pool = createParsePool(2);
    try {
      const ok = await Promise.all(
        [1, 2, 3].map((i) => pool.parse(Buffer.from(eml({ id: `<${i}@x>`, subject: `s${i}` })))),
      );
      expect(ok.map((m) => m.subject)).toEqual(['s1', 's2', 's3']);
      const bad = await pool.parse(Buffer.from('not mail')).catch((e: unknown) => e);
      expect(bad).toBeInstanceOf(ParseError);
      expect((bad as Error).message).toBe('The file does not start with mail headers.');
    } finally {
      await pool.close();
    }
  });

  test('a buffer handed over moves to the thread whole; a slice of a shared one is copied', async () => {
    const pool = createParsePool(1);
    try {
      const bytes = Buffer.from(eml({ id: '<own@x>', subject: 'own', body: 'x'.repeat(5000) }));
      const own = Buffer.allocUnsafeSlow(bytes.length);
      bytes.copy(own);
      const expected = await parseMessage(bytes);
      expect(await pool.parse(own, undefined, true)).toEqual(expected);
      expect(own.length).toBe(0);
      const shared = Buffer.concat([bytes, Buffer.from('\r\n')]).subarray(0, bytes.length);
      expect(await pool.parse(shared, undefined, true)).toEqual(expected);
      expect(shared.length).toBe(bytes.length);
    } finally {
      await pool.close();
    }
  });
});
