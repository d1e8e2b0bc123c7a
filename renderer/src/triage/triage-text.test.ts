import { describe, expect, test } from 'vitest';
import { durationText, estimateText, progressText } from './triage-text.ts';

describe('triage sentences', () => {
  test('the estimate reads as counts with thousands separators', () => {
    expect(estimateText({ messages: 1240, inputTokens: 310_000, seconds: 360 })).toBe(
      '1,240 messages, about 310,000 input tokens, about 6 minutes',
    );
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
});
