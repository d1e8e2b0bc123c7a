import { describe, expect, test } from 'vitest';
import type { Original, You } from './composition.ts';
import { forward, forwardedLine } from './forward.ts';

const you: You = {
  identities: [{ address: 'me@example.com', name: 'Me', signature: 'Me' }],
  accountAddress: 'me@example.com',
};

const original = (fields: Partial<Original> = {}): Original => ({
  id: 7,
  messageId: '<2@x>',
  references: ['<1@x>'],
  subject: 'Fwd: Menu',
  from: { name: 'Priya Raman', address: 'priya@example.com' },
  to: [
    { name: '', address: 'me@example.com' },
    { name: 'team', group: [{ name: 'Lee', address: 'lee@example.com' }] },
  ],
  cc: [{ name: 'Sam', address: 'sam@example.com' }],
  date: Date.UTC(2026, 2, 3, 14, 5),
  text: 'The menu:\r\n> soup\r\n',
  attachments: [
    { name: 'menu.pdf', contentType: 'application/pdf', size: 1200 },
    { name: 'map.png', contentType: 'image/png', size: 52_000 },
  ],
  ...fields,
});

describe('a forward', () => {
  test("carries one Fwd:, the original's headers and text below your signature, to nobody yet", () => {
    const f = forward(original(), you, { timeZone: 'UTC' });
    expect(f.subject).toBe('Fwd: Menu');
    expect({ to: f.to, cc: f.cc, inReplyTo: f.inReplyTo, references: f.references }).toEqual({
      to: [],
      cc: [],
      inReplyTo: null,
      references: [],
    });
    expect(f.body).toBe(
      [
        '',
        '',
        '-- ',
        'Me',
        '',
        forwardedLine,
        'From: Priya Raman <priya@example.com>',
        'Date: Tue, 3 Mar 2026 at 14:05',
        'Subject: Fwd: Menu',
        'To: me@example.com, Lee <lee@example.com>',
        'Cc: Sam <sam@example.com>',
        '',
        'The menu:',
        '> soup',
        '',
      ].join('\n'),
    );
  });

  test('lists the attachments to carry by where they are kept, never their bytes', () => {
    expect(forward(original(), you).attachments).toEqual([
      { message: 7, index: 0, name: 'menu.pdf', contentType: 'application/pdf', size: 1200 },
      { message: 7, index: 1, name: 'map.png', contentType: 'image/png', size: 52_000 },
    ]);
  });

  test('leaves out the Date, To and Cc lines the original did not have', () => {
    const f = forward(original({ date: 0, to: [], cc: [], text: '' }), {
      identities: [],
      accountAddress: null,
    });
    expect(f.from).toBeNull();
    expect(f.body).toBe(
      `\n\n${forwardedLine}\nFrom: Priya Raman <priya@example.com>\nSubject: Fwd: Menu\n\n`,
    );
  });
});
