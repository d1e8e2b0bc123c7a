// Content-IDs as stored from a part's header and as named by a `cid:` URL (RFC 2392) compare the same.
import { describe, expect, test } from 'vitest';
import { cidOf, contentIdOf } from './content-id.ts';

describe('Content-IDs', () => {
  test('a header value loses its angle brackets', () => {
    expect(contentIdOf(' <logo.123@example.com> ')).toBe('logo.123@example.com');
    expect(contentIdOf(undefined)).toBe('');
    expect(contentIdOf(`<${'x'.repeat(400)}>`).length).toBe(255);
  });

  test('a cid: URL is percent-decoded and compared in lower case', () => {
    expect(cidOf('cid:Logo.123@Example.com')).toBe('logo.123@example.com');
    expect(cidOf('CID:%3Cpart1%40x%3E')).toBe('part1@x');
    expect(cidOf('cid:%E0%A4%A')).toBeNull();
    expect(cidOf('https://x.example/cid:a')).toBeNull();
  });
});
