import { describe, expect, it } from 'vitest';
import { calendarPartIndex } from '../../../shared/calendar-part.ts';
import type { Attachment } from '../../../shared/contract/index.ts';
import { type EventVersion, whatChanged } from './what-changed.ts';

const at = (utc: string) => ({ utc, timeZone: 'Europe/Amsterdam', allDay: false });
const first: EventVersion = {
  title: 'Weekly sync',
  start: at('2027-01-12T09:00:00.000Z'),
  end: at('2027-01-12T10:00:00.000Z'),
  location: 'Room 4',
};

describe('whatChanged', () => {
  it('finds nothing between two equal versions', () => {
    expect(whatChanged(first, { ...first })).toEqual([]);
  });

  it('names a new time with the old and new start and end', () => {
    const later = { ...first, start: at('2027-01-12T10:00:00.000Z'), end: at('2027-01-12T11:00:00.000Z') };
    expect(whatChanged(first, later)).toEqual([
      {
        field: 'time',
        from: { start: first.start, end: first.end },
        to: { start: later.start, end: later.end },
      },
    ]);
  });

  it('counts a new end alone, and an all-day day at the same instant, as a new time', () => {
    expect(whatChanged(first, { ...first, end: at('2027-01-12T10:30:00.000Z') }).map((c) => c.field)).toEqual(
      ['time'],
    );
    expect(whatChanged(first, { ...first, start: { ...first.start, allDay: true } })[0]?.field).toBe('time');
  });

  it('names a place taken away and a new title, in that order', () => {
    expect(whatChanged(first, { ...first, location: null, title: 'Sync' })).toEqual([
      { field: 'location', from: 'Room 4', to: null },
      { field: 'title', from: 'Weekly sync', to: 'Sync' },
    ]);
  });
});

describe('calendarPartIndex', () => {
  const part = (name: string, contentType: string): Attachment => ({ name, contentType, size: 1 });

  it("takes the body's text/calendar alternative over the .ics attachment beside it (Google, Fastmail)", () => {
    expect(calendarPartIndex([part('', 'text/calendar'), part('invite.ics', 'application/ics')])).toBe(0);
    expect(calendarPartIndex([part('invite.ics', 'application/ics'), part('', 'text/calendar')])).toBe(1);
  });

  it('takes an .ics file when there is no text/calendar part, and none from other files', () => {
    expect(
      calendarPartIndex([part('a.pdf', 'application/pdf'), part('Event.ICS', 'application/octet-stream')]),
    ).toBe(1);
    expect(calendarPartIndex([part('a.pdf', 'application/pdf')])).toBeNull();
    expect(calendarPartIndex([])).toBeNull();
  });
});
