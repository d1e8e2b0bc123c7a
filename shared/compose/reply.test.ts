import { describe, expect, test } from 'vitest';
import type { Identity, Original, You } from './composition.ts';
import { chooseFrom } from './from.ts';
import { reply, replyAll } from './reply.ts';

const me: Identity = { address: 'me@example.com', name: 'Me', signature: 'Me\nExample Ltd' };
const work: Identity = { address: 'me@work.example', name: null, signature: null };
const you: You = { identities: [me, work], accountAddress: 'me@example.com' };
const utc = { timeZone: 'UTC' };

const original = (fields: Partial<Original> = {}): Original => ({
  id: 7,
  messageId: '<2@x>',
  references: ['<1@x>'],
  subject: 'Re: Lunch',
  from: { name: 'Priya Raman', address: 'priya@example.com' },
  to: [{ name: '', address: 'me@example.com' }],
  cc: [{ name: 'Sam', address: 'sam@example.com' }],
  date: Date.UTC(2026, 2, 3, 14, 5),
  text: 'Noon?\r\n> Or one?\r\n',
  attachments: [{ name: 'menu.pdf', contentType: 'application/pdf', size: 1200 }],
  ...fields,
});

describe('a reply', () => {
  test('answers the sender with one Re:, the thread, and the quote below your signature', () => {
    expect(reply(original(), you, utc)).toEqual({
      from: me,
      to: [{ name: 'Priya Raman', address: 'priya@example.com' }],
      cc: [],
      subject: 'Re: Lunch',
      body: '\n\n-- \nMe\nExample Ltd\n\nOn Tue, 3 Mar 2026 at 14:05, Priya Raman wrote:\n> Noon?\n>> Or one?\n',
      original: 7,
      inReplyTo: '<2@x>',
      references: ['<1@x>', '<2@x>'],
      attachments: [],
    });
  });

  test('has no signature when the address it is from has none', () => {
    const r = reply(original({ to: [{ name: '', address: 'ME@work.example' }] }), you, utc);
    expect(r.from).toBe(work);
    expect(r.body).toBe('\n\nOn Tue, 3 Mar 2026 at 14:05, Priya Raman wrote:\n> Noon?\n>> Or one?\n');
  });

  test('does not add a second separator to a signature that has one', () => {
    const dashed = { ...me, signature: '-- \r\nMe' };
    const r = reply(original(), { identities: [dashed], accountAddress: null }, utc);
    expect(r.body.startsWith('\n\n-- \nMe\n\nOn ')).toBe(true);
  });

  test('to an empty message is the line to write on and the signature, with no quote', () => {
    expect(reply(original({ text: '\r\n' }), you, utc).body).toBe('\n\n-- \nMe\nExample Ltd\n\n');
  });

  test('quotes an HTML-only message from the text the caller renders', () => {
    const r = reply(original({ text: '', html: '<p>Noon?</p>' }), you, {
      ...utc,
      htmlText: (html) => html.replace(/<[^>]+>/g, ''),
    });
    expect(r.body.endsWith('Priya Raman wrote:\n> Noon?\n')).toBe(true);
  });

  test('all goes to everyone on it but you', () => {
    const r = replyAll(original(), you, utc);
    expect(r.to.map((a) => a.address)).toEqual(['priya@example.com']);
    expect(r.cc.map((a) => a.address)).toEqual(['sam@example.com']);
    expect(r.subject).toBe('Re: Lunch');
  });

  test("leaves out the account's own address even before it is one of your addresses", () => {
    const r = replyAll(original(), { identities: [], accountAddress: 'me@example.com' }, utc);
    expect(r.to.map((a) => a.address)).toEqual(['priya@example.com']);
    expect(r.from).toEqual({ address: 'me@example.com', name: null, signature: null });
  });
});

describe('the address a reply is from', () => {
  test.each([
    ['the one it was sent to', { to: [{ name: '', address: 'Me@Work.Example' }] }, work],
    ['the one it was copied to', { to: [], cc: [{ name: '', address: 'me@work.example' }] }, work],
    [
      'the one you sent it from',
      { from: { name: '', address: 'me@work.example' }, to: [{ name: '', address: 'x@example.com' }] },
      work,
    ],
    [
      "the account's default when it was sent to none of yours (a list)",
      { to: [{ name: '', address: 'list@example.com' }] },
      me,
    ],
  ])('is %s', (_what, fields, expected) => {
    expect(chooseFrom(original(fields), { ...you, accountAddress: 'me@example.com' })).toBe(expected);
  });

  test('is none when you have no address and the account none (imported mail)', () => {
    expect(chooseFrom(original({ to: [] }), { identities: [], accountAddress: null })).toBeNull();
  });
});
