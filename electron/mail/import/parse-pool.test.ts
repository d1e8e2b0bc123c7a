import { describe, expect, test } from 'vitest';
import { eml } from '../../../test/support/temp.ts';
import { parseMessage } from './parse.ts';
import { ParseError } from './parse-bounds.ts';
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

  test('answers every message of a batch in its own order, a failing one among them failing alone', async () => {
    const pool = createParsePool(1);
    try {
      const raws = Array.from({ length: 40 }, (_, i) =>
        i % 7 === 3 ? Buffer.from(`not mail ${i}`) : Buffer.from(eml({ id: `<b${i}@x>`, subject: `s${i}` })),
      );
      const expected = await Promise.all(raws.map((r) => parseMessage(r).catch((e: unknown) => e)));
      // 40 at once: more than one batch, the last one part full and sent on the next turn of the event loop.
      const got = await Promise.all(raws.map((r) => pool.parse(r).catch((e: unknown) => e)));
      expect(got).toEqual(expected);
      expect(got.filter((g) => g instanceof ParseError)).toHaveLength(6);
      expect(
        got.map((g) => (g instanceof ParseError ? 'failed' : (g as { subject: string }).subject))[10],
      ).toBe('failed');
    } finally {
      await pool.close();
    }
  });

  test('a message awaited alone is answered without others to fill its batch', async () => {
    const pool = createParsePool(1);
    try {
      for (const i of [1, 2, 3]) {
        expect((await pool.parse(Buffer.from(eml({ id: `<a${i}@x>`, subject: `alone ${i}` })))).subject).toBe(
          `alone ${i}`,
        );
      }
    } finally {
      await pool.close();
    }
  });

  test('the same buffer handed over twice in one batch is parsed twice, not refused', async () => {
    const pool = createParsePool(1);
    try {
      const bytes = Buffer.from(eml({ id: '<twice@x>', subject: 'twice' }));
      const own = Buffer.allocUnsafeSlow(bytes.length);
      bytes.copy(own);
      const got = await Promise.all([pool.parse(own, undefined, true), pool.parse(own, undefined, true)]);
      expect(got.map((m) => m.subject)).toEqual(['twice', 'twice']);
    } finally {
      await pool.close();
    }
  });

  test('keeps the reading order when a big message comes between small ones', async () => {
    const pool = createParsePool(1);
    try {
      const small = (i: number) => Buffer.from(eml({ id: `<m${i}@x>`, subject: `small ${i}` }));
      const big = Buffer.from(eml({ id: '<big@x>', subject: 'big', body: 'word '.repeat(80_000) }));
      const got = await Promise.all(
        [small(1), small(2), big, small(3)].map((r) => pool.parse(r, undefined, true)),
      );
      expect(got.map((m) => m.subject)).toEqual(['small 1', 'small 2', 'big', 'small 3']);
      expect(got[2]?.text.length).toBeGreaterThan(300_000);
    } finally {
      await pool.close();
    }
  });

  test('a second thread starts only when the first is behind on mail that mailparser reads', async () => {
    const withFile = (i: number) =>
      Buffer.from(
        [
          'From: a@x.example',
          `Subject: file ${i}`,
          `Message-ID: <f${i}@x>`,
          // An HTML body with its picture inline: multipart/related is mailparser's (parse-direct.ts).
          'Content-Type: multipart/related; boundary=b',
          '',
          '--b',
          'Content-Type: text/html',
          '',
          '<p>See the picture: <img src="cid:p@x"></p>',
          '--b',
          'Content-Type: image/png; name=p.png',
          'Content-ID: <p@x>',
          'Content-Transfer-Encoding: base64',
          '',
          'iVBORw0KGgo=',
          '--b--',
          '',
        ].join('\r\n'),
      );
    const everyday = (i: number) => Buffer.from(eml({ id: `<e${i}@x>`, subject: `s${i}` }));
    const wave = (make: (i: number) => Buffer, from: number) =>
      Promise.all(Array.from({ length: 150 }, (_, i) => pool.parse(make(from + i))));
    const pool = createParsePool(2);
    try {
      // Everyday mail, however far behind: one thread.
      await wave(everyday, 0);
      await wave(everyday, 150);
      expect(pool.threads()).toBe(1);
      // Mail with attachments, with 150 queued at once: the second thread starts.
      await wave(withFile, 0);
      await wave(withFile, 150);
      expect(pool.threads()).toBe(2);
    } finally {
      await pool.close();
    }
  });
});
