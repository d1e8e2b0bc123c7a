import { describe, expect, test } from 'vitest';
import type { Address } from '../contract/index.ts';
import type { AddressEntry, Original } from './composition.ts';
import { flattenAddresses, replyRecipients } from './recipients.ts';

const a = (address: string, name = ''): Address => ({ name, address });
const me = 'me@example.com';
const work = 'me@work.example';
const yours = [me, work];

function original(fields: {
  from: Address;
  to?: AddressEntry[];
  cc?: AddressEntry[];
  replyTo?: AddressEntry[];
}): Original {
  return {
    id: 1,
    messageId: '<1@x>',
    references: [],
    subject: 'Lunch',
    date: 0,
    text: '',
    attachments: [],
    to: [],
    cc: [],
    ...fields,
  };
}

const bare = (r: { to: Address[]; cc: Address[] }) => ({
  to: r.to.map((x) => x.address),
  cc: r.cc.map((x) => x.address),
});

describe('who a reply all goes to', () => {
  test.each([
    [
      'the sender, every To and every Cc, without you',
      { from: a('priya@example.com'), to: [a(me), a('sam@example.com')], cc: [a('lee@example.com')] },
      { to: ['priya@example.com', 'sam@example.com'], cc: ['lee@example.com'] },
    ],
    [
      'none of your addresses, whatever their case or spaces',
      {
        from: a('priya@example.com'),
        to: [a(' ME@Example.COM '), a('sam@example.com')],
        cc: [a('Me@Work.Example')],
      },
      { to: ['priya@example.com', 'sam@example.com'], cc: [] },
    ],
    [
      'each address once, the first place it was named',
      {
        from: a('priya@example.com'),
        to: [a('sam@example.com'), a('Priya@Example.com'), a('sam@example.com')],
        cc: [a('SAM@example.com'), a('lee@example.com'), a('lee@example.com')],
      },
      { to: ['priya@example.com', 'sam@example.com'], cc: ['lee@example.com'] },
    ],
    [
      'the Reply-To instead of the sender',
      { from: a('priya@example.com'), replyTo: [a('list@example.com')], to: [a('list@example.com'), a(me)] },
      { to: ['list@example.com'], cc: [] },
    ],
    [
      'every member of a group, and nobody for a group with none',
      {
        from: a('priya@example.com'),
        to: [{ name: 'team', group: [a('sam@example.com'), a(me), a('lee@example.com')] }],
        cc: [{ name: 'undisclosed-recipients', group: [] }],
      },
      { to: ['priya@example.com', 'sam@example.com', 'lee@example.com'], cc: [] },
    ],
    [
      'the original To and Cc when you sent it, not you',
      { from: a(work), to: [a('sam@example.com'), a(me)], cc: [a('lee@example.com'), a(work)] },
      { to: ['sam@example.com'], cc: ['lee@example.com'] },
    ],
    [
      'its Cc as the To when you sent it to nobody else',
      { from: a(me), to: [a(me)], cc: [a('lee@example.com')] },
      { to: ['lee@example.com'], cc: [] },
    ],
    ['you, when you sent it to yourself alone', { from: a(me), to: [a(me)] }, { to: [me], cc: [] }],
    [
      'not the Reply-To of a message you sent',
      { from: a(me), replyTo: [a('list@example.com')], to: [a('sam@example.com')] },
      { to: ['sam@example.com'], cc: [] },
    ],
    [
      'nobody named by name alone',
      { from: a('priya@example.com'), to: [a('', 'Sam'), a('not an address'), a('sam@example.com')] },
      { to: ['priya@example.com', 'sam@example.com'], cc: [] },
    ],
  ])('is %s', (_what, fields, expected) => {
    expect(bare(replyRecipients(original(fields), yours, true))).toEqual(expected);
  });

  test('keeps a name that another place of the same address had', () => {
    const r = replyRecipients(
      original({ from: a('priya@example.com'), to: [a('sam@example.com'), a('sam@example.com', 'Sam Lee')] }),
      yours,
      true,
    );
    expect(r.to).toEqual([a('priya@example.com'), a('sam@example.com', 'Sam Lee')]);
  });
});

describe('who a reply goes to', () => {
  test.each([
    [
      'the sender',
      { from: a('priya@example.com'), to: [a(me), a('sam@example.com')] },
      ['priya@example.com'],
    ],
    [
      'the Reply-To, every address of it',
      { from: a('priya@example.com'), replyTo: [a('a@example.com'), a('b@example.com')] },
      ['a@example.com', 'b@example.com'],
    ],
    [
      'the sender when the Reply-To holds no address',
      { from: a('priya@example.com'), replyTo: [{ name: 'nobody', group: [] }] },
      ['priya@example.com'],
    ],
    [
      'the people you wrote to when you sent it',
      { from: a(me), to: [a('sam@example.com')], cc: [a('lee@example.com')] },
      ['sam@example.com'],
    ],
  ])('is %s', (_what, fields, to) => {
    expect(bare(replyRecipients(original(fields), yours, false))).toEqual({ to, cc: [] });
  });
});

test('groups are flattened into their members, in order', () => {
  expect(
    flattenAddresses([
      a('x@example.com'),
      { name: 'team', group: [a('y@example.com', 'Y'), { name: 'inner', group: [a('z@example.com')] }] },
    ]),
  ).toEqual([a('x@example.com'), a('y@example.com', 'Y'), a('z@example.com')]);
});
