// The REPLY to an invitation (RFC 5546 §3.2.3): the same UID, SEQUENCE and DTSTART, the ORGANIZER, and only
// the replying ATTENDEE with their answer. A pure function of the invitation's text and the answer, so the
// same invitation answered the same way gives the same reply but for DTSTAMP.
import ICAL from 'ical.js';
import { InvitationError } from './invitation-error.ts';
import { readInvitation } from './read-invitation.ts';

export type Answer = 'ACCEPTED' | 'TENTATIVE' | 'DECLINED';

/** The text/calendar body of the reply, METHOD:REPLY. Throws InvitationError when the invitation cannot be read. */
export function buildReply(invitationText: string, me: string, answer: Answer, now: Date): string {
  const inv = readInvitation(invitationText);
  if (inv.method !== 'REQUEST')
    throw new InvitationError('unsupported', 'A cancelled event cannot be answered.');
  const source = new ICAL.Component(ICAL.parse(invitationText) as unknown[]).getFirstSubcomponent(
    'vevent',
  ) as ICAL.Component;
  const mine = source.getAllProperties('attendee').find(
    (p) =>
      String(p.getFirstValue())
        .replace(/^mailto:/i, '')
        .toLowerCase() === me.toLowerCase(),
  );
  if (!mine)
    throw new InvitationError(
      'unsupported',
      `${me} is not among this invitation's attendees, so it cannot answer it.`,
    );

  const cal = new ICAL.Component('vcalendar');
  cal.addPropertyWithValue('prodid', '-//Skimmer//Invitation reply//EN');
  cal.addPropertyWithValue('version', '2.0');
  cal.addPropertyWithValue('method', 'REPLY');
  const ev = new ICAL.Component('vevent');
  ev.addPropertyWithValue('uid', inv.uid);
  ev.addPropertyWithValue('sequence', inv.sequence);
  ev.addProperty(ICAL.Property.fromString(source.getFirstProperty('dtstart')?.toICALString() as string));
  const organizer = source.getFirstProperty('organizer');
  if (organizer) ev.addProperty(ICAL.Property.fromString(organizer.toICALString()));
  const summary = source.getFirstPropertyValue('summary');
  if (typeof summary === 'string') ev.addPropertyWithValue('summary', summary);
  const recurrenceId = source.getFirstProperty('recurrence-id');
  if (recurrenceId) ev.addProperty(ICAL.Property.fromString(recurrenceId.toICALString()));
  const attendee = new ICAL.Property('attendee');
  attendee.setValue(`mailto:${me}`);
  const cn = mine.getParameter('cn');
  if (typeof cn === 'string') attendee.setParameter('cn', cn);
  attendee.setParameter('partstat', answer);
  ev.addProperty(attendee);
  ev.addPropertyWithValue('dtstamp', ICAL.Time.fromJSDate(now, true));
  cal.addSubcomponent(ev);
  return `${cal.toString()}\r\n`;
}
