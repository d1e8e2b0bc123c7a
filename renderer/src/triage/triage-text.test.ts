import { describe, expect, test } from 'vitest';
import {
  costText,
  durationText,
  estimateText,
  newMailEstimateText,
  progressText,
  scopeText,
} from './triage-text.ts';

describe('triage sentences', () => {
  test('the estimate reads as counts with thousands separators', () => {
    expect(estimateText({ messages: 1240, inputTokens: 310_000, seconds: 360 })).toBe(
      '1,240 messages, about 310,000 input tokens, about 6 minutes',
    );
  });

  test('with a price, the estimate says what it will cost', () => {
    expect(estimateText({ messages: 1240, inputTokens: 310_000, seconds: 360, cost: 0.0465 })).toBe(
      '1,240 messages, about 310,000 input tokens, about 6 minutes, about $0.05 at the price you entered',
    );
    expect(estimateText({ messages: 2, inputTokens: 900, seconds: 1, cost: null })).toBe(
      '2 messages, about 900 input tokens, about 1 second',
    );
  });

  test.each([
    [0, '$0.00'],
    [0.004, 'less than $0.01'],
    [1.005, '$1.00'],
    [12.5, '$12.50'],
    [1234.4, '$1,234'],
  ])('$%d reads as %s', (dollars, text) => {
    expect(costText(dollars)).toBe(text);
  });

  test.each([
    [1, '1 second'],
    [45, '45 seconds'],
    [310, '5 minutes'],
    [7200, '2 hours'],
  ])('%i seconds read as %s', (seconds, text) => {
    expect(durationText(seconds)).toBe(text);
  });

  test('progress names what is done, what failed, the rate and the time left', () => {
    expect(progressText({ done: 120, failed: 2, total: 1240, perSecond: 3.96, etaSeconds: 280 })).toBe(
      '120 of 1,240 done · 2 failed · 4 a second · about 5 minutes left',
    );
    expect(progressText({ done: 10, failed: 0, total: 10, perSecond: 0, etaSeconds: 0 })).toBe(
      '10 of 10 done',
    );
  });

  test('new mail is priced per 100 messages from the scope’s estimate, and not at all from an empty scope', () => {
    expect(newMailEstimateText({ messages: 1240, inputTokens: 310_000, cost: 0.62 })).toBe(
      'About 25,000 input tokens per 100 new messages, about $0.05 at the price you entered.',
    );
    expect(newMailEstimateText({ messages: 3, inputTokens: 900, cost: null })).toBe(
      'About 30,000 input tokens per 100 new messages.',
    );
    expect(newMailEstimateText({ messages: 0, inputTokens: 0 })).toBeNull();
  });

  test('a job over new mail says how many messages it had', () => {
    const folder = () => 'Inbox';
    expect(scopeText({ kind: 'new_mail', messages: 1 }, folder)).toBe('1 new message');
    expect(scopeText({ kind: 'new_mail', messages: 1200 }, folder)).toBe('1,200 new messages');
    expect(scopeText({ kind: 'folder', folderId: 3 }, folder)).toBe('folder Inbox');
  });
});
