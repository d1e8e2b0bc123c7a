import { describe, expect, test } from 'vitest';
import { maxReferences, messageIdForm, replyThreading } from './references.ts';

describe('the threading headers of a reply', () => {
  test.each([
    [
      'its References, then its Message-ID',
      { messageId: '<3@x>', references: ['<1@x>', '<2@x>'] },
      { inReplyTo: '<3@x>', references: ['<1@x>', '<2@x>', '<3@x>'] },
    ],
    [
      'its In-Reply-To when it has no References',
      { messageId: '<2@x>', references: [], inReplyTo: '<1@x>' },
      { inReplyTo: '<2@x>', references: ['<1@x>', '<2@x>'] },
    ],
    [
      'only its Message-ID when it starts a thread',
      { messageId: '<1@x>', references: [] },
      { inReplyTo: '<1@x>', references: ['<1@x>'] },
    ],
    [
      'each id once, its own last',
      { messageId: '<3@x>', references: ['<1@x>', '<3@x>', '<2@x>', '<1@x>'] },
      { inReplyTo: '<3@x>', references: ['<1@x>', '<2@x>', '<3@x>'] },
    ],
    [
      'ids in their bracketed form, whatever form they were stored in',
      { messageId: ' 3@x ', references: ['1@x', '<2@x>'] },
      { inReplyTo: '<3@x>', references: ['<1@x>', '<2@x>', '<3@x>'] },
    ],
    [
      'no In-Reply-To for a message without a Message-ID, and its thread kept',
      { messageId: '', references: ['<1@x>'] },
      { inReplyTo: null, references: ['<1@x>'] },
    ],
    [
      'ids that cannot be one left out',
      { messageId: '<3@x>', references: ['<a b@x>', '', '<>', '<1@x>'] },
      { inReplyTo: '<3@x>', references: ['<1@x>', '<3@x>'] },
    ],
  ])('carry %s', (_what, answered, expected) => {
    expect(replyThreading(answered)).toEqual(expected);
  });

  test('a long thread keeps its root and the newest ids, at most maxReferences', () => {
    const references = Array.from({ length: 60 }, (_, i) => `<${i}@x>`);
    const { references: kept } = replyThreading({ messageId: '<60@x>', references });
    expect(kept).toHaveLength(maxReferences);
    expect(kept[0]).toBe('<0@x>');
    expect(kept.slice(1)).toEqual(Array.from({ length: maxReferences - 1 }, (_, i) => `<${60 - 18 + i}@x>`));
    expect(kept.at(-1)).toBe('<60@x>');
  });

  test.each([
    ['<a@x>', '<a@x>'],
    ['a@x', '<a@x>'],
    ['', null],
    ['<a@x> <b@x>', null],
  ])('%j is the Message-ID %j', (id, form) => {
    expect(messageIdForm(id)).toBe(form);
  });
});
