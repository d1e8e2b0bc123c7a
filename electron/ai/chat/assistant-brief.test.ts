import { describe, expect, test } from 'vitest';
import { assistantBrief } from './assistant-brief.ts';

describe('the assistant brief', () => {
  test('says today’s date in the user’s time zone, spoken and as YYYY-MM-DD', () => {
    // 23:30 UTC on 1 December is already 2 December in Tokyo.
    const now = new Date('2026-12-01T23:30:00Z');
    expect(assistantBrief({ now, timeZone: 'UTC' })).toContain(
      'Today is Tuesday, 1 December 2026 (2026-12-01), time zone UTC.',
    );
    expect(assistantBrief({ now, timeZone: 'Asia/Tokyo' })).toContain(
      'Wednesday, 2 December 2026 (2026-12-02)',
    );
  });

  test('names the user’s addresses only when they are given', () => {
    const now = new Date('2026-12-01T12:00:00Z');
    const withAddresses = assistantBrief({
      now,
      timeZone: 'UTC',
      addresses: [
        { address: 'ana@example.org', name: 'Ana Silva' },
        { address: 'ana@work.example', name: null },
      ],
    });
    expect(withAddresses).toContain('Ana Silva <ana@example.org>, ana@work.example.');
    expect(assistantBrief({ now, timeZone: 'UTC' })).not.toContain('addresses');
    expect(assistantBrief({ now, timeZone: 'UTC', addresses: [] })).not.toContain('addresses');
  });
});
