import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildReply } from './build-reply.ts';
import { InvitationError } from './invitation-error.ts';
import { readInvitation } from './read-invitation.ts';

const fixture = (name: string) =>
  readFileSync(new URL(`../../../fixtures/invitations/${name}`, import.meta.url), 'utf8');

function refusal(name: string): InvitationError {
  try {
    readInvitation(fixture(name));
  } catch (e) {
    expect(e).toBeInstanceOf(InvitationError);
    return e as InvitationError;
  }
  throw new Error(`${name} was read`);
}

describe('readInvitation', () => {
  it('reads a Google Calendar weekly series in its organiser zone', () => {
    const inv = readInvitation(fixture('google.ics'));
    expect(inv).toMatchObject({
      method: 'REQUEST',
      uid: '7kukuqrfedlm2f9t0vr42q3nsk@google.com',
      sequence: 0,
      title: 'Weekly sync',
      location: 'Room 4, Main St',
      organizer: { name: 'Ada Lovelace', address: 'ada@example.com' },
      repeats: 'Every week on Tuesday, 10 times',
    });
    // 10:00 in Amsterdam in January is 09:00 UTC.
    expect(inv.start).toEqual({
      utc: '2027-01-12T09:00:00.000Z',
      timeZone: 'Europe/Amsterdam',
      allDay: false,
    });
    expect(inv.end?.utc).toBe('2027-01-12T10:00:00.000Z');
    expect(inv.attendees.map((a) => a.address)).toEqual(['ada@example.com', 'me@example.org']);
  });

  it("maps Outlook's Windows zone name to its IANA zone, summer time included", () => {
    const inv = readInvitation(fixture('outlook.ics'));
    expect(inv.start).toEqual({ utc: '2027-07-15T12:00:00.000Z', timeZone: 'Europe/Berlin', allDay: false });
    expect(inv.end?.utc).toBe('2027-07-15T13:30:00.000Z');
    expect(inv.sequence).toBe(2);
    expect(inv.title).toBe('Q1 review');
    expect(inv.attendees[1]).toEqual({
      name: 'Alan Turing',
      address: 'alan@contoso.com',
      partstat: 'NEEDS-ACTION',
    });
  });

  it('reads an iCloud all-day event', () => {
    const inv = readInvitation(fixture('icloud.ics'));
    expect(inv.start).toEqual({ utc: '2027-03-01T00:00:00.000Z', timeZone: null, allDay: true });
    expect(inv.organizer).toEqual({ name: 'Katherine Johnson', address: 'kj@icloud.com', partstat: null });
    expect(inv.repeats).toBeNull();
  });

  it('reads a Fastmail cancellation whose end is a DURATION', () => {
    const inv = readInvitation(fixture('fastmail-cancel.ics'));
    expect(inv.method).toBe('CANCEL');
    expect(inv.sequence).toBe(3);
    expect(inv.start.utc).toBe('2027-02-05T14:00:00.000Z');
    expect(inv.end?.utc).toBe('2027-02-05T14:30:00.000Z');
  });

  it('shows at most ten attendees and counts the others', () => {
    const head =
      'BEGIN:VCALENDAR\r\nVERSION:2.0\r\nMETHOD:REQUEST\r\nBEGIN:VEVENT\r\nUID:u\r\nDTSTART:20270101T100000Z\r\n';
    const people = Array.from({ length: 25 }, (_, i) => `ATTENDEE:mailto:p${i}@x\r\n`).join('');
    const inv = readInvitation(`${head}${people}END:VEVENT\r\nEND:VCALENDAR\r\n`);
    expect(inv.attendees).toHaveLength(10);
    expect(inv.moreAttendees).toBe(15);
  });

  it('describes COUNT=10^9 without expanding it', () => {
    expect(readInvitation(fixture('huge-count.ics')).repeats).toBe('Every second, 1000000000 times');
  });

  it('refuses 10,000 attendees by size before parsing', () => {
    expect(refusal('ten-thousand-attendees.ics').reason).toBe('too_large');
  });

  it('refuses more than 1000 attendees under the size bound', () => {
    const e = refusal('many-attendees.ics');
    expect(e.reason).toBe('too_many');
    expect(e.message).toMatch(/more than 1000 people/);
  });

  it('refuses a time zone it does not know, naming it', () => {
    const e = refusal('bad-tzid.ics');
    expect(e.reason).toBe('unsupported');
    expect(e.message).toContain('Mars/Olympus_Mons');
  });

  it('refuses garbage with a sentence, not the parser text', () => {
    const e = refusal('garbage.ics');
    expect(e.reason).toBe('malformed');
    expect(e.message).toBe('This invitation could not be read: its calendar data is malformed.');
  });

  it('refuses a calendar part that is not a REQUEST or CANCEL', () => {
    expect(() => readInvitation(fixture('google.ics').replace('METHOD:REQUEST', 'METHOD:PUBLISH'))).toThrow(
      /not an invitation/,
    );
  });
});

describe('buildReply', () => {
  const now = new Date('2026-12-02T14:00:00Z');

  it('answers with METHOD:REPLY, the same UID, SEQUENCE and DTSTART, and only my attendee line', () => {
    const folded = buildReply(fixture('outlook.ics'), 'me@example.org', 'ACCEPTED', now);
    // Lines over 75 octets are folded (RFC 5545 §3.1); read it unfolded.
    expect(folded.split('\r\n').every((l) => l.length <= 75)).toBe(true);
    const reply = folded.replace(/\r\n[ \t]/g, '');
    expect(reply).toContain('METHOD:REPLY');
    expect(reply).toContain(
      'UID:040000008200E00074C5B7101A82E00800000000D0F1C2A3B4C5D601000000000000000010000000ABCDEF',
    );
    expect(reply).toContain('SEQUENCE:2');
    expect(reply).toContain('DTSTART;TZID=W. Europe Standard Time:20270715T140000');
    expect(reply).toContain('ORGANIZER;CN=Grace Hopper:mailto:grace@contoso.com');
    expect(reply).toContain('DTSTAMP:20261202T140000Z');
    const attendees = reply.split('\r\n').filter((l) => l.startsWith('ATTENDEE'));
    expect(attendees).toEqual(['ATTENDEE;CN=Me;PARTSTAT=ACCEPTED:mailto:me@example.org']);
    expect(reply).not.toContain('alan@contoso.com');
    // The reply reads back as a calendar with my answer.
    expect(readInvitation(reply.replace('METHOD:REPLY', 'METHOD:REQUEST')).attendees[0]?.partstat).toBe(
      'ACCEPTED',
    );
  });

  it.each(['TENTATIVE', 'DECLINED'] as const)('carries %s', (answer) => {
    expect(buildReply(fixture('google.ics'), 'ME@example.org', answer, now)).toContain(`PARTSTAT=${answer}`);
  });

  it('refuses to answer for someone not invited, and to answer a cancellation', () => {
    expect(() => buildReply(fixture('google.ics'), 'eve@example.net', 'ACCEPTED', now)).toThrow(/not among/);
    expect(() => buildReply(fixture('fastmail-cancel.ics'), 'me@example.org', 'ACCEPTED', now)).toThrow(
      InvitationError,
    );
  });
});
