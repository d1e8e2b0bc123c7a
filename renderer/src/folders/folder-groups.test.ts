import { describe, expect, test } from 'vitest';
import type { Folder, FolderPlace } from '../../../shared/contract/index.ts';
import { groupFolders } from './folder-groups.ts';

let nextId = 1;
function folder(
  name: string,
  source: string,
  place: FolderPlace | null = null,
  account: { id: number; name: string } | null = null,
): Folder {
  return { id: nextId++, name, source, place, account, total: 1, unread: 0 };
}
const work = { id: 7, name: 'Work' };
const home = { id: 3, name: 'alice@home.example' };

// What the list shows: each group's title and its entries' labels.
const shown = (folders: Folder[]) =>
  groupFolders(folders).map((g) => [g.title, g.entries.map((e) => e.label)]);

describe('the grouped folder list', () => {
  test("puts each account's folders under its name, Inbox first and the special places in the views' order", () => {
    expect(
      shown([
        folder('Projects', 'imap:Projects', null, work),
        folder('Trash', 'imap:Trash', 'trash', work),
        folder('INBOX', 'imap:INBOX', 'inbox', work),
        folder('Sent', 'imap:Sent', 'sent', work),
        folder('Archive', 'imap:Archive', 'archive', work),
        folder('Drafts', 'imap:Drafts', 'drafts', work),
        folder('INBOX', 'imap:INBOX', 'inbox', home),
      ]),
    ).toEqual([
      ['alice@home.example', ['Inbox']],
      ['Work', ['Inbox', 'Drafts', 'Sent', 'Archive', 'Trash', 'Projects']],
    ]);
  });

  test('puts the folders of one import under the name of the folder it came from', () => {
    expect(
      shown([
        folder('Mail', '/home/u/Mail'),
        folder('Sent', '/home/u/Mail/.Sent', 'sent'),
        folder('Work/Later', '/home/u/Mail/.Work.Later'),
        folder('Inbox', '/home/u/Downloads/export/Inbox.mbox', 'inbox'),
        folder('Trash', '/home/u/Downloads/export/Trash.mbox', 'trash'),
      ]),
    ).toEqual([
      ['export', ['Inbox', 'Trash']],
      ['Mail', ['Sent', 'Mail', 'Work/Later']],
    ]);
  });

  test('puts folders of .eml files side by side under the folder they sit in', () => {
    expect(
      shown([
        folder('work', '/tmp/export/work'),
        folder('Sent', '/tmp/export/Sent', 'sent'),
        folder('demo', '/app/fixtures/demo'),
      ]),
    ).toEqual([
      ['demo', ['demo']],
      ['export', ['Sent', 'work']],
    ]);
  });

  test("shows Skimmer's own Archive and Trash for imported mail after the imports, and accounts before them", () => {
    const groups = groupFolders([
      folder('Trash', 'skimmer:trash', 'trash'),
      folder('demo', '/app/fixtures/demo'),
      folder('Archive', 'skimmer:archive', 'archive'),
      folder('INBOX', 'imap:INBOX', 'inbox', work),
    ]);
    expect(groups.map((g) => [g.kind, g.title])).toEqual([
      ['account', 'Work'],
      ['import', 'demo'],
      ['local', 'On this computer'],
    ]);
    expect(groups[2]?.entries.map((e) => e.label)).toEqual(['Archive', 'Trash']);
  });

  test('tells two folders of the same name in one import apart by where they sit in it', () => {
    expect(
      shown([
        folder('Inbox', '/m/a/Inbox.mbox', 'inbox'),
        folder('Inbox', '/m/b/Inbox.mbox', 'inbox'),
        folder('m', '/m'),
      ]),
    ).toEqual([['m', ['Inbox — a', 'Inbox — b', 'm']]]);
  });

  test('numbers what nothing else tells apart: two imports of the same name, two folders of one name', () => {
    expect(
      shown([
        folder('Sent', '/one/Mail/Sent.mbox', 'sent'),
        folder('Sent', '/two/Mail/Sent.mbox', 'sent'),
        folder('Work', 'imap:Work', null, work),
        folder('WORK', 'imap:WORK', null, work),
      ]),
    ).toEqual([
      ['Work', ['Work', 'WORK (2)']],
      ['Mail', ['Sent']],
      ['Mail (2)', ['Sent']],
    ]);
  });

  test('never shows two entries alike, whatever the folders', () => {
    const folders = [
      folder('INBOX', 'imap:INBOX', 'inbox', work),
      folder('Inbox', 'imap:Inbox2', null, work),
      folder('Inbox', '/x/Inbox.mbox'),
      folder('Inbox', '/x/y/Inbox.mbox'),
      folder('Inbox', '/x/y/z/Inbox.mbox'),
      folder('Archive', 'skimmer:archive', 'archive'),
      folder('Archive', '/x/Archive.mbox', 'archive'),
      folder('Work', '/Work'),
    ];
    const seen = groupFolders(folders).flatMap((g) =>
      g.entries.map((e) => `${g.title}/${e.label}`.toLowerCase()),
    );
    expect(new Set(seen).size).toBe(folders.length);
  });

  test('keys a group by what it is, not by its title, so a collapsed group stays collapsed', () => {
    const keys = groupFolders([folder('INBOX', 'imap:INBOX', 'inbox', work), folder('a', '/x/a.mbox')]).map(
      (g) => g.key,
    );
    expect(keys).toEqual(['account:7', 'import:/x']);
  });
});
