// The event card's sentences (issue 29 §2): when, in the person's time zone and, when it differs, the
// organiser's; what an update changed; the answer given. Pure functions of the card's data, for its tests.
import type { InvitationAnswer, InvitationCard } from '../../../shared/contract/index.ts';

type When = InvitationCard['start'];
type Change = InvitationCard['changes'][number];

/** The zone the page runs in (the person's). */
export const localZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone;

// An all-day date and a floating time (no zone) are wall times, written as UTC by the reader: shown as UTC so
// they read as written, wherever the person is.
const wallTime = (w: When) => w.allDay || w.timeZone === null;

function format(w: When, zone: string, withDate: boolean, locale?: string): string {
  const date = new Date(w.utc);
  const timeZone = wallTime(w) ? 'UTC' : zone;
  if (w.allDay) {
    return new Intl.DateTimeFormat(locale, { timeZone, dateStyle: 'full' }).format(date);
  }
  const options: Intl.DateTimeFormatOptions = withDate
    ? {
        timeZone,
        weekday: 'short',
        day: 'numeric',
        month: 'short',
        year: 'numeric',
        hour: '2-digit',
        minute: '2-digit',
      }
    : { timeZone, hour: '2-digit', minute: '2-digit' };
  return new Intl.DateTimeFormat(locale, options).format(date);
}

function sameDay(a: When, b: When, zone: string): boolean {
  const day = (w: When) =>
    new Intl.DateTimeFormat('en-CA', { timeZone: wallTime(w) ? 'UTC' : zone, dateStyle: 'short' }).format(
      new Date(w.utc),
    );
  return day(a) === day(b);
}

/** "Tue, 12 Jan 2027, 10:00 – 11:00" in `zone`; an all-day event as its day (or its first and last day). */
export function spanText(start: When, end: When | null, zone: string, locale?: string): string {
  const from = format(start, zone, true, locale);
  if (!end) return from;
  if (start.allDay) {
    // DTEND of an all-day event is the day after its last (RFC 5545 §3.6.1).
    const last = { ...end, utc: new Date(Date.parse(end.utc) - 86_400_000).toISOString() };
    return Date.parse(last.utc) <= Date.parse(start.utc)
      ? from
      : `${from} – ${format(last, zone, true, locale)}`;
  }
  return `${from} – ${format(end, zone, !sameDay(start, end, zone), locale)}`;
}

/** The organiser's zone when it is a real zone other than `zone`, else null. */
export function organiserZone(start: When, zone: string): string | null {
  if (wallTime(start) || start.timeZone === null || start.timeZone === 'UTC' || start.timeZone === 'Etc/UTC')
    return null;
  const offset = (z: string) =>
    new Intl.DateTimeFormat('en-US', { timeZone: z, timeZoneName: 'longOffset' }).format(new Date(start.utc));
  return offset(start.timeZone) === offset(zone) ? null : start.timeZone;
}

/** "Updated: the time changed from … to …", one sentence per change. */
export function changeText(change: Change, zone: string, locale?: string): string {
  switch (change.field) {
    case 'time':
      return `Updated: the time changed from ${spanText(change.from.start, change.from.end, zone, locale)} to ${spanText(change.to.start, change.to.end, zone, locale)}.`;
    case 'location':
      if (change.to === null) return `Updated: the place "${change.from ?? ''}" was taken away.`;
      if (change.from === null) return `Updated: the place is now "${change.to}".`;
      return `Updated: the place changed from "${change.from}" to "${change.to}".`;
    case 'title':
      return `Updated: the title changed from "${change.from}" to "${change.to}".`;
  }
}

const answered: Record<InvitationAnswer, string> = {
  ACCEPTED: 'You accepted',
  TENTATIVE: 'You said maybe',
  DECLINED: 'You declined',
};

/** "You accepted", with whether it is still on its way or answered an earlier version. */
export function answerText(answer: NonNullable<InvitationCard['answer']>, sequence: number): string {
  const base = answered[answer.answer];
  if (answer.sequence < sequence) return `${base} an earlier version of this event.`;
  return answer.state === 'sent' ? `${base}.` : `${base} (sending soon: Undo is in the outbox bar).`;
}
