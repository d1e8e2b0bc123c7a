// Reads a calendar invitation (a text/calendar part, RFC 5546 METHOD REQUEST or CANCEL) into plain data for
// the event card (issue 29 §2). SECURITY: the part is untrusted mail; it is bounded before ical.js sees it
// (size, attendee lines), a series is described from its RRULE and never expanded, and every failure is an
// InvitationError with a sentence, never ical.js's own text.
import ICAL from 'ical.js';
import { InvitationError } from './invitation-error.ts';
import { ruleInWords } from './rule-in-words.ts';
import { ianaZone } from './windows-zones.ts';

const MAX_INVITATION_BYTES = 256 * 1024;
const MAX_ATTENDEES = 1000;
const SHOWN_ATTENDEES = 10;

type Person = { name: string | null; address: string; partstat: string | null };
type When = { utc: string; timeZone: string | null; allDay: boolean };

export type Invitation = {
  method: 'REQUEST' | 'CANCEL';
  uid: string;
  sequence: number;
  title: string;
  start: When;
  end: When | null;
  location: string | null;
  organizer: Person | null;
  attendees: Person[];
  moreAttendees: number;
  repeats: string | null;
  rrule: string | null;
};

function fail(reason: 'too_large' | 'malformed' | 'unsupported' | 'too_many', message: string): never {
  throw new InvitationError(reason, message);
}

function address(v: unknown): string {
  return String(v ?? '').replace(/^mailto:/i, '');
}

function person(p: ICAL.Property | null): Person | null {
  if (!p) return null;
  const cn = p.getParameter('cn');
  const ps = p.getParameter('partstat');
  return {
    name: typeof cn === 'string' ? cn : null,
    address: address(p.getFirstValue()),
    partstat: typeof ps === 'string' ? ps.toUpperCase() : null,
  };
}

// The wall time a TZID names, as an instant: the zone's offset at a first guess, corrected once for a change
// of offset between the guess and the answer (DST).
function offsetAt(ms: number, zone: string): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: zone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(new Date(ms));
  const n = (t: string) => Number(parts.find((x) => x.type === t)?.value);
  return Date.UTC(n('year'), n('month') - 1, n('day'), n('hour'), n('minute'), n('second')) - ms;
}

function when(prop: ICAL.Property | null, what: string): When | null {
  if (!prop) return null;
  const t = prop.getFirstValue();
  if (!(t instanceof ICAL.Time)) fail('malformed', `The invitation's ${what} is not a date.`);
  const wall = Date.UTC(t.year, t.month - 1, t.day, t.hour, t.minute, t.second);
  if (!Number.isFinite(wall)) fail('malformed', `The invitation's ${what} is not a date.`);
  if (t.isDate) return { utc: new Date(wall).toISOString(), timeZone: null, allDay: true };
  const tzid = prop.getParameter('tzid');
  if (t.zone === ICAL.Timezone.utcTimezone || typeof tzid !== 'string') {
    return {
      utc: new Date(wall).toISOString(),
      timeZone: t.zone === ICAL.Timezone.utcTimezone ? 'UTC' : null,
      allDay: false,
    };
  }
  const zone = ianaZone(tzid);
  if (!zone)
    fail(
      'unsupported',
      `The invitation's ${what} is in a time zone Skimmer does not know ("${tzid.slice(0, 60)}").`,
    );
  const first = wall - offsetAt(wall, zone);
  return { utc: new Date(wall - offsetAt(first, zone)).toISOString(), timeZone: zone, allDay: false };
}

// An event with a DURATION instead of a DTEND (Fastmail writes these) ends that long after its start.
function byDuration(start: When, d: unknown): When | null {
  if (!(d instanceof ICAL.Duration)) return null;
  const ms = Date.parse(start.utc) + d.toSeconds() * 1000;
  return Number.isFinite(ms) ? { ...start, utc: new Date(ms).toISOString() } : null;
}

/** The invitation in a text/calendar part; throws InvitationError for one too large, malformed or not an invitation. */
export function readInvitation(text: string): Invitation {
  if (Buffer.byteLength(text, 'utf8') > MAX_INVITATION_BYTES) {
    fail('too_large', 'This invitation is too large to read (over 256 KB).');
  }
  // SECURITY: counted before parsing, so ical.js never builds a hostile list of thousands of people.
  const attendeeLines = text.match(/^ATTENDEE[;:]/gim)?.length ?? 0;
  if (attendeeLines > MAX_ATTENDEES)
    fail('too_many', `This invitation lists more than ${MAX_ATTENDEES} people and was not read.`);
  let root: ICAL.Component;
  try {
    root = new ICAL.Component(ICAL.parse(text) as unknown[]);
  } catch {
    fail('malformed', 'This invitation could not be read: its calendar data is malformed.');
  }
  if (root.name !== 'vcalendar')
    fail('malformed', 'This invitation could not be read: it is not a calendar.');
  const method = String(root.getFirstPropertyValue('method') ?? '').toUpperCase();
  if (method !== 'REQUEST' && method !== 'CANCEL') {
    fail(
      'unsupported',
      `This calendar part is not an invitation or a cancellation (method "${method.slice(0, 20) || 'none'}").`,
    );
  }
  const event = root.getFirstSubcomponent('vevent');
  if (!event) fail('malformed', 'This invitation has no event in it.');
  const uid = event.getFirstPropertyValue('uid');
  if (typeof uid !== 'string' || uid === '')
    fail('malformed', 'This invitation has no UID, so it cannot be answered.');
  const start = when(event.getFirstProperty('dtstart'), 'start');
  if (!start) fail('malformed', 'This invitation has no start time.');
  const seq = Number(event.getFirstPropertyValue('sequence') ?? 0);
  const rruleProp = event.getFirstProperty('rrule');
  let repeats: string | null = null;
  let rrule: string | null = null;
  if (rruleProp) {
    const r = rruleProp.getFirstValue();
    if (!(r instanceof ICAL.Recur)) fail('malformed', "This invitation's repeat rule is malformed.");
    repeats = ruleInWords(r);
    rrule = r.toString();
  }
  const everyone = event.getAllProperties('attendee').map((p) => person(p) as Person);
  const location = event.getFirstPropertyValue('location');
  const summary = event.getFirstPropertyValue('summary');
  return {
    method,
    uid,
    sequence: Number.isSafeInteger(seq) && seq >= 0 ? seq : 0,
    title: typeof summary === 'string' && summary.trim() ? summary : '(no title)',
    start,
    end:
      when(event.getFirstProperty('dtend'), 'end') ??
      byDuration(start, event.getFirstPropertyValue('duration')),
    location: typeof location === 'string' && location.trim() ? location : null,
    organizer: person(event.getFirstProperty('organizer')),
    attendees: everyone.slice(0, SHOWN_ATTENDEES),
    moreAttendees: Math.max(0, everyone.length - SHOWN_ATTENDEES),
    repeats,
    rrule,
  };
}
