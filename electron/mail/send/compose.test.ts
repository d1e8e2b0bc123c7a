import { describe, expect, test } from 'vitest';
import { maxReferences } from '../../../shared/compose/references.ts';
import { compose, type Outgoing } from './compose.ts';

const message: Outgoing = {
  from: 'me@example.com',
  to: ['priya@example.com'],
  cc: [],
  subject: 'Re: Lunch',
  body: 'Noon.',
  messageId: '<skimmer.1@skimmer.invalid>',
  date: new Date(Date.UTC(2026, 2, 3)),
};

// The header's value, unfolded.
const header = (raw: Buffer, name: string) =>
  raw
    .toString('utf8')
    .split('\r\n\r\n')[0]
    ?.replace(/\r\n[ \t]+/g, ' ')
    .split('\r\n')
    .find((l) => l.toLowerCase().startsWith(`${name.toLowerCase()}: `))
    ?.slice(name.length + 2);

describe('a composed reply', () => {
  test('answers the Message-ID and carries the thread, each id once', async () => {
    const raw = await compose({ ...message, inReplyTo: '<2@x>', references: ['<1@x>', '<2@x>', '<1@x>'] });
    expect(header(raw, 'In-Reply-To')).toBe('<2@x>');
    expect(header(raw, 'References')).toBe('<1@x> <2@x>');
  });

  test("keeps a long thread's References to its root and newest ids", async () => {
    const references = Array.from({ length: 60 }, (_, i) => `<${i}@x>`);
    const raw = await compose({ ...message, inReplyTo: '<60@x>', references });
    const ids = header(raw, 'References')?.split(' ') ?? [];
    expect(ids).toHaveLength(maxReferences);
    expect([ids[0], ids.at(-2), ids.at(-1)]).toEqual(['<0@x>', '<59@x>', '<60@x>']);
  });

  test('a new message has neither header', async () => {
    const raw = await compose(message);
    expect(header(raw, 'In-Reply-To')).toBeUndefined();
    expect(header(raw, 'References')).toBeUndefined();
  });
});

describe('an invitation reply', () => {
  test('carries the calendar as a text/calendar;method=REPLY alternative of the text, and as an .ics', async () => {
    const calendar = 'BEGIN:VCALENDAR\r\nMETHOD:REPLY\r\nEND:VCALENDAR\r\n';
    const raw = (
      await compose({
        ...message,
        subject: 'Accepted: Weekly sync',
        attachments: [
          {
            name: 'reply.ics',
            contentType: 'text/calendar; method=REPLY; charset=utf-8',
            content: Buffer.from(calendar),
          },
        ],
      })
    ).toString('utf8');
    const alternative = /boundary="([^"]+)"/.exec(raw.slice(raw.indexOf('multipart/alternative')))?.[1];
    const parts = raw.split(`--${alternative}`);
    // The text, then the calendar, inside one multipart/alternative (RFC 6047 §2.4).
    expect(parts[1]).toMatch(/Content-Type: text\/plain/);
    expect(parts[2]).toMatch(/Content-Type: text\/calendar; charset=utf-8; method=REPLY/);
    expect(parts[2]).toContain('METHOD:REPLY');
    expect(raw).toMatch(/Content-Type: application\/ics; name=reply\.ics/);
  });

  test('an .ics file with no METHOD stays an attachment', async () => {
    const raw = (
      await compose({
        ...message,
        attachments: [
          { name: 'event.ics', contentType: 'text/calendar', content: Buffer.from('BEGIN:VCALENDAR') },
        ],
      })
    ).toString('utf8');
    expect(raw).not.toContain('multipart/alternative');
    expect(raw).toMatch(/Content-Disposition: attachment; filename=event\.ics/);
  });
});
