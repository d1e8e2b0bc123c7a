import { execFileSync } from 'node:child_process';
import { describe, expect, test } from 'vitest';
import { detachedString } from '../shared/detached-string.ts';

describe('detachedString', () => {
  test.each([
    ['', ''],
    ['short', 'short'],
    ['a piece of a longer text, cut out of it', 'a piece of a longer text, cut out of it'],
    ['Grüße 😀 \u0000 end', 'Grüße 😀 \u0000 end'],
  ])('gives the same characters for %j', (input, expected) => {
    expect(detachedString(input)).toBe(expected);
  });

  test('keeps pieces of big texts without keeping the texts, where plain pieces keep them', () => {
    // Heap after collecting, with 200 pieces of 200,000-byte texts kept (40 MB): in a child with gc() exposed.
    const heldMb = (detach: boolean) => {
      const script = `
        const detachedString = ${detachedString.toString()};
        const kept = [];
        for (let i = 0; i < 200; i++) {
          const big = 'é'.repeat(200000) + i;
          const piece = big.slice(10, 40);
          kept.push(${detach} ? detachedString(piece) : piece);
        }
        gc(); gc();
        console.log(process.memoryUsage().heapUsed / 1048576, kept.length);`;
      const out = execFileSync(process.execPath, ['--expose-gc', '-e', script], { encoding: 'utf8' });
      return Number(out.split(' ')[0]);
    };
    expect(heldMb(false)).toBeGreaterThan(30);
    expect(heldMb(true)).toBeLessThan(10);
  });
});
