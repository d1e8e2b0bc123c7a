import { describe, expect, test } from 'vitest';
import { newMailNotice } from './new-mail-notice.ts';

const lunch = { from: 'Ana', subject: 'Lunch?' };
const report = { from: 'bo@example.com', subject: 'Q3 report' };

describe('newMailNotice', () => {
  test('new mail after the first sync: one summary of the round', () => {
    expect(newMailNotice(true, { firstSync: false, count: 3, latest: [lunch, report] })).toEqual({
      title: '3 new messages',
      body: 'Ana: Lunch?\nbo@example.com: Q3 report',
    });
    expect(newMailNotice(true, { firstSync: false, count: 1, latest: [lunch] })).toEqual({
      title: '1 new message',
      body: 'Ana: Lunch?',
    });
  });

  test('the mail a first sync brings is no new mail', () => {
    expect(newMailNotice(true, { firstSync: true, count: 20_000, latest: [lunch] })).toBeNull();
  });

  test('nothing when the person has not turned notifications on, or nothing came', () => {
    expect(newMailNotice(false, { firstSync: false, count: 3, latest: [lunch] })).toBeNull();
    expect(newMailNotice(true, { firstSync: false, count: 0, latest: [] })).toBeNull();
  });

  test("a sender's and subject's controls, overrides and line breaks are gone; long lines are cut", () => {
    const notice = newMailNotice(true, {
      firstSync: false,
      count: 2,
      latest: [
        { from: 'Bank\u202e\u200b', subject: 'Pay now\r\nSkimmer: verified sender\u0007' },
        { from: '', subject: 'x'.repeat(200) },
      ],
    });
    const [first, second, more] = notice?.body.split('\n') ?? [];
    expect(first).toBe('Bank: Pay now Skimmer: verified sender');
    expect(second).toBe(`Unknown sender: ${'x'.repeat(79)}…`);
    expect(more).toBeUndefined();
  });
});
