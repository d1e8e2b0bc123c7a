// The file browser's listing (files:browse) over real folders: what it lists, what it refuses, how it is bounded.
// Through the bridge (with the app's own places and data folder) in test/files-bridge.test.ts.
import { mkdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { makeFifo } from '../../test/support/special-files.ts';
import { tempDir } from '../../test/support/temp.ts';
import { browseFolder } from './browse.ts';
import { FileRefusal, type Places } from './safe-open.ts';

const root = realpathSync(tempDir('skimmer-browse-'));
const outside = realpathSync(tempDir('skimmer-outside-'));
const dataDir = join(root, 'data');
const places: Places = { roots: [root], excluded: [dataDir] };

const mail = join(root, 'mail');
mkdirSync(join(mail, 'Maildir', 'cur'), { recursive: true });
mkdirSync(join(mail, 'Maildir', 'new'));
mkdirSync(join(mail, 'Maildir', 'tmp'));
mkdirSync(join(mail, 'exports'));
writeFileSync(join(mail, 'archive.mbox'), 'From a@b Sat Jan  1 00:00:00 2000\n\nhi\n');
writeFileSync(join(mail, 'note.eml'), 'Subject: hi\n\nhello\n');
writeFileSync(join(mail, 'Inbox'), 'From a@b Sat Jan  1 00:00:00 2000\n\nhi\n');
writeFileSync(join(mail, 'Inbox.msf'), '');
writeFileSync(join(mail, 'handbook.pdf'), '%PDF-1.4');
writeFileSync(join(mail, '.hidden.mbox'), '');
mkdirSync(dataDir);
writeFileSync(join(dataDir, 'vault.key'), 'key');
writeFileSync(join(outside, 'secret.txt'), 'not yours');

async function refusal(run: Promise<unknown>): Promise<string> {
  const e = await run.then(
    () => null,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(FileRefusal);
  return (e as FileRefusal).reason;
}

describe('browseFolder', () => {
  test('lists folders first, then files, each by name, with what each looks like to an import', async () => {
    const listing = await browseFolder({ dir: mail }, places);
    expect(listing.entries.map((e) => [e.name, e.kind, e.looks])).toEqual([
      ['exports', 'folder', null],
      ['Maildir', 'folder', 'maildir'],
      ['archive.mbox', 'file', 'mbox'],
      ['handbook.pdf', 'file', 'document'],
      ['Inbox', 'file', 'mbox'],
      ['Inbox.msf', 'file', null],
      ['note.eml', 'file', 'eml'],
    ]);
    expect(listing.entries.find((e) => e.name === 'note.eml')).toMatchObject({
      path: join(mail, 'note.eml'),
      size: 19,
    });
    expect(listing.entries.find((e) => e.name === 'Maildir')?.size).toBeNull();
    expect(listing).toMatchObject({ dir: mail, up: root, matched: 7, hidden: 1, scanCut: false });
    expect(listing.crumbs).toEqual([
      { name: root, path: root },
      { name: 'mail', path: mail },
    ]);
  });

  test('lists hidden names only when asked', async () => {
    const listing = await browseFolder({ dir: mail, hidden: true }, places);
    expect(listing.entries.map((e) => e.name)).toContain('.hidden.mbox');
    expect(listing.hidden).toBe(0);
  });

  test('keeps only the names a filter matches, in any case', async () => {
    const listing = await browseFolder({ dir: mail, filter: 'INBOX' }, places);
    expect(listing.entries.map((e) => e.name)).toEqual(['Inbox', 'Inbox.msf']);
  });

  test('has no folder above the top of a place', async () => {
    expect((await browseFolder({ dir: root }, places)).up).toBeNull();
  });

  test('refuses a folder outside the user’s places', async () => {
    expect(await refusal(browseFolder({ dir: outside }, places))).toBe('outside');
    expect(await refusal(browseFolder({ dir: '/etc' }, places))).toBe('outside');
    expect(await refusal(browseFolder({ dir: '/proc/self' }, places))).toBe('system');
  });

  test('refuses Skimmer’s data folder and leaves it out of its parent’s listing', async () => {
    expect(await refusal(browseFolder({ dir: dataDir }, places))).toBe('data_folder');
    const listing = await browseFolder({ dir: root }, places);
    expect(listing.entries.map((e) => e.name)).not.toContain('data');
    expect(listing.entries.map((e) => e.name)).toContain('mail');
  });

  test('refuses a link that leads out of the places, named as the folder to list', async () => {
    const dir = join(root, 'links-a');
    mkdirSync(dir);
    symlinkSync(outside, join(dir, 'away'));
    expect(await refusal(browseFolder({ dir: join(dir, 'away') }, places))).toBe('outside');
    symlinkSync(dataDir, join(dir, 'data-link'));
    expect(await refusal(browseFolder({ dir: join(dir, 'data-link', '.') }, places))).toBe('data_folder');
  });

  test('leaves out links that lead out, and lists a link inside as where it leads', async () => {
    const dir = join(root, 'links-b');
    mkdirSync(dir);
    symlinkSync(outside, join(dir, 'away'));
    symlinkSync(join(outside, 'secret.txt'), join(dir, 'secret.txt'));
    symlinkSync(join(dataDir, 'vault.key'), join(dir, 'vault.key'));
    symlinkSync('/proc/self/environ', join(dir, 'environ'));
    symlinkSync(join(dir, 'loop'), join(dir, 'loop'));
    symlinkSync(join(mail, 'Maildir'), join(dir, 'mine'));
    const listing = await browseFolder({ dir }, places);
    expect(listing.entries).toEqual([
      { name: 'mine', path: join(mail, 'Maildir'), kind: 'folder', size: null, looks: 'maildir' },
    ]);
  });

  test('lists only regular files and folders: a FIFO is left out, never opened', async () => {
    const dir = join(root, 'special');
    mkdirSync(dir);
    makeFifo(join(dir, 'pipe'));
    writeFileSync(join(dir, 'plain.eml'), 'x');
    const listing = await browseFolder({ dir }, places);
    expect(listing.entries.map((e) => e.name)).toEqual(['plain.eml']);
  });

  test('refuses a relative path, a file and a folder that is not there', async () => {
    expect(await refusal(browseFolder({ dir: 'mail' }, places))).toBe('outside');
    expect(await refusal(browseFolder({ dir: join(mail, 'note.eml') }, places))).toBe('not_regular');
    expect(await refusal(browseFolder({ dir: join(root, 'nope') }, places))).toBe('missing');
  });

  test('shows at most 2,000 entries, folders first, and says how many matched', async () => {
    const dir = join(root, 'big');
    mkdirSync(dir);
    for (let i = 0; i < 2005; i++) writeFileSync(join(dir, `m${i}.eml`), '');
    for (const name of ['zz-folder', 'aa-folder']) mkdirSync(join(dir, name));
    const listing = await browseFolder({ dir }, places);
    expect(listing.entries).toHaveLength(2000);
    expect(listing.matched).toBe(2007);
    expect(listing.entries.slice(0, 3).map((e) => e.name)).toEqual(['aa-folder', 'zz-folder', 'm0.eml']);
    // Numbers sort as numbers: m2 before m10.
    expect(listing.entries[4]?.name).toBe('m2.eml');
    // A filter finds what the cut left out.
    const found = await browseFolder({ dir, filter: 'm2004' }, places);
    expect(found.entries.map((e) => e.name)).toEqual(['m2004.eml']);
  });

  test('reads a huge folder only so far, and says so', async () => {
    const dir = join(root, 'spool');
    mkdirSync(dir);
    for (let i = 0; i < 30; i++) writeFileSync(join(dir, `m${i}`), '');
    const listing = await browseFolder({ dir }, places, { maxEntries: 10, maxScan: 20 });
    expect(listing).toMatchObject({ matched: 20, scanCut: true });
    expect(listing.entries).toHaveLength(10);
  });
});
