import { describe, expect, it } from 'vitest';
import { answerText, changeText, organiserZone, spanText } from './invitation-text.ts';

const at = (utc: string, timeZone: string | null = 'Europe/Amsterdam', allDay = false) => ({
  utc,
  timeZone,
  allDay,
});

describe("the card in the person's time zone", () => {
  it('writes an hour on one day in the zone given, the end as a time only', () => {
    const text = spanText(
      at('2027-01-12T09:00:00.000Z'),
      at('2027-01-12T10:00:00.000Z'),
      'America/New_York',
      'en-GB',
    );
    expect(text).toBe('Tue, 12 Jan 2027, 04:00 – 05:00');
  });

  it('writes an all-day event as its day wherever the person is, DTEND being the day after', () => {
    const day = at('2027-03-01T00:00:00.000Z', null, true);
    const next = at('2027-03-02T00:00:00.000Z', null, true);
    expect(spanText(day, next, 'Pacific/Honolulu', 'en-GB')).toBe('Monday, 1 March 2027');
  });

  it("names the organiser's zone only when its clock differs from the person's", () => {
    const start = at('2027-01-12T09:00:00.000Z');
    expect(organiserZone(start, 'America/New_York')).toBe('Europe/Amsterdam');
    expect(organiserZone(start, 'Europe/Paris')).toBeNull();
    expect(organiserZone(at('2027-01-12T09:00:00.000Z', 'UTC'), 'America/New_York')).toBeNull();
  });

  it('says what an update changed', () => {
    const text = changeText(
      {
        field: 'time',
        from: { start: at('2027-01-12T09:00:00.000Z'), end: at('2027-01-12T10:00:00.000Z') },
        to: { start: at('2027-01-12T10:00:00.000Z'), end: at('2027-01-12T11:00:00.000Z') },
      },
      'Europe/Amsterdam',
      'en-GB',
    );
    expect(text).toBe(
      'Updated: the time changed from Tue, 12 Jan 2027, 10:00 – 11:00 to Tue, 12 Jan 2027, 11:00 – 12:00.',
    );
    expect(changeText({ field: 'location', from: 'Room 4', to: null }, 'UTC')).toBe(
      'Updated: the place "Room 4" was taken away.',
    );
  });

  it('says the answer given, and when it was to an earlier version', () => {
    const answer = { answer: 'ACCEPTED' as const, sequence: 0, outboxId: 1, state: 'sent' as const };
    expect(answerText(answer, 0)).toBe('You accepted.');
    expect(answerText(answer, 1)).toBe('You accepted an earlier version of this event.');
    expect(answerText({ ...answer, answer: 'DECLINED', state: 'queued' }, 0)).toMatch(
      /^You declined \(sending soon/,
    );
  });
});
