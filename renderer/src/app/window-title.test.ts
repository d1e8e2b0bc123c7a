import { describe, expect, test } from 'vitest';
import { windowTitle } from './window-title.ts';

const folders = [
  { id: 1, name: 'Inbox', place: 'inbox' as const, unread: 9 },
  { id: 2, name: 'work', place: null, unread: 3 },
  { id: 3, name: 'Spam', place: 'spam' as const, unread: 40 },
  { id: 4, name: 'Sent\u202e', place: 'sent' as const, unread: 0 },
];

describe('windowTitle', () => {
  test("the Inbox counts every Inbox folder's unread, not Spam's", () => {
    expect(windowTitle({ view: 'mail', mailView: 'inbox', folderId: null, folders })).toBe(
      'Inbox (12) — Skimmer',
    );
  });

  test('a folder its own count; nothing unread, the name alone; other views and Chat by name', () => {
    expect(windowTitle({ view: 'mail', mailView: 'inbox', folderId: 2, folders })).toBe('work (3) — Skimmer');
    expect(windowTitle({ view: 'mail', mailView: 'inbox', folderId: 4, folders })).toBe('Sent — Skimmer');
    expect(windowTitle({ view: 'mail', mailView: 'starred', folderId: null, folders })).toBe(
      'Starred — Skimmer',
    );
    expect(windowTitle({ view: 'chat', mailView: 'inbox', folderId: null, folders })).toBe('Chat — Skimmer');
    expect(windowTitle({ view: 'mail', mailView: 'inbox', folderId: null, folders: [] })).toBe(
      'Inbox — Skimmer',
    );
  });
});
