import { describe, expect, test } from 'vitest';
import { messagePreview } from './message-preview.ts';

describe('the first words of a collapsed message', () => {
  test('the body on one line, without the quote it answers', () => {
    const text =
      'Sounds good.\nSee you at 10.\n\nOn Mon, 30 Nov 2026 at 09:00, Dana <d@x> wrote:\n> Shall we meet?\n> At 10?';
    expect(messagePreview(text)).toBe('Sounds good. See you at 10.');
  });

  test('a long body ends at a word with an ellipsis', () => {
    const preview = messagePreview('word '.repeat(100), 40);
    expect(preview.endsWith('word…')).toBe(true);
    expect(preview.length).toBeLessThanOrEqual(41);
  });

  test('a message that is all quote shows nothing of its own', () => {
    expect(messagePreview('> only\n> quoted')).toBe('');
  });
});
