import { describe, expect, test } from 'vitest';
import { redact } from './redact.ts';

const key = 'local-key-0123456789';

describe('redact', () => {
  test('masks a configured key wherever it appears', () => {
    expect(redact(`Incorrect API key provided: ${key}. Check ${key}.`, [key])).toBe(
      'Incorrect API key provided: [redacted]. Check [redacted].',
    );
  });

  test.each([
    ['sk-test-canary-01234567', '[redacted]'],
    // Keys with a family after sk- (as Anthropic's and OpenAI's project keys have), obviously fake.
    ['sk-test-canary-ant-abcdefgh', '[redacted]'],
    ['Authorization: Bearer abc.def.ghi-123456', 'Authorization: [redacted]'],
    ['sk-test-canary-proj-01234567 rejected', '[redacted] rejected'],
  ])('masks key-shaped text %s', (input, expected) => {
    expect(redact(input)).toBe(expected);
  });

  test('ignores configured keys too short to be keys', () => {
    expect(redact('the model is busy', ['busy'])).toBe('the model is busy');
  });

  test('masks before cutting, so a key at the cut is never half shown', () => {
    const text = `${'x'.repeat(190)} ${key} tail`;
    const out = redact(text, [key]);
    expect(out.length).toBeLessThanOrEqual(200);
    expect(out).not.toContain('local-key');
    expect(out).not.toContain('0123');
  });

  test('never splits a surrogate pair at the cut', () => {
    const out = redact(`${'a'.repeat(198)}😀😀😀`);
    expect(out.length).toBeLessThanOrEqual(200);
    expect(out).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])/);
    expect(out.endsWith('…')).toBe(true);
  });

  test('masks a key that contains another configured key whole', () => {
    expect(redact('abcdefgh-ijklmnop', ['abcdefgh', 'abcdefgh-ijklmnop'])).toBe('[redacted]');
  });
});
