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
