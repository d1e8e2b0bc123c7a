import { describe, expect, test } from 'vitest';
import { MailAddress } from './recipient-arg.ts';

describe('a recipient in a tool call', () => {
  test.each([
    'priya.raman@example.com',
    ' Priya.Raman@Example.COM ',
    "x'priya@example.com",
    'a@xn--bcher-kva.example',
  ])('%j is one valid address', (text) => {
    expect(MailAddress.safeParse(text).success).toBe(true);
  });

  test.each([
    'Priya <priya@example.com>',
    'a@example.com, b@example.com',
    'team: a@example.com;',
    'a@example.com<evil@x.example>',
    'a@localhost',
    'a@example.com\nBcc: c@d.example',
    `${'a'.repeat(320)}@example.com`,
  ])('%j is refused', (text) => {
    const parsed = MailAddress.safeParse(text);
    expect(parsed.success).toBe(false);
  });
});
