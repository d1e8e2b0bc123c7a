// The file rule (DESIGN §13): where a named file may be is a pure decision over its real path; opening checks the
// descriptor itself. The hostile cases end to end are in test/documents-bridge.test.ts and test/hostile-import.test.ts.
import { symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { makeFifo, makeSparse } from '../../test/support/special-files.ts';
import { tempDir } from '../../test/support/temp.ts';
import {
  openUserFile,
  type Places,
  placeRefusal,
  readUserFile,
  readUserFileSync,
  shellPlaces,
  userPlaces,
} from './safe-open.ts';

const places: Places = {
  roots: ['/home/ann', '/tmp', '/media'],
  excluded: ['/home/ann/.config/Skimmer'],
};

describe('placeRefusal', () => {
  test.each([
    ['/home/ann/notes.txt', null],
    ['/home/ann/.thunderbird/profile/Mail/Inbox', null],
    ['/media/usb/report.pdf', null],
    ['/tmp/skimmer-test-1/a.eml', null],
    ['/home/ann', null],
    ['/home/annabel/notes.txt', 'outside'],
    ['/etc/shadow', 'outside'],
    ['/var/lib/secret.txt', 'outside'],
    ['/home/ann/.config/Skimmer/vault.key', 'data_folder'],
    ['/home/ann/.config/Skimmer', 'data_folder'],
    ['/proc/4242/environ', 'system'],
    ['/dev/zero', 'system'],
    ['/sys/kernel/notes', 'system'],
  ] as const)('%s is %s', (path, expected) => {
    expect(placeRefusal(path, places)).toBe(expected);
  });

  test('a system folder is refused even inside a root', () => {
    expect(placeRefusal('/proc/self/environ', { roots: ['/proc'], excluded: [] })).toBe('system');
  });
});

describe('userPlaces', () => {
  const home = process.env.HOME;
  afterEach(() => {
    process.env.HOME = home;
  });

  test('a home folder of / is no root, so it does not open the whole disk', () => {
    process.env.HOME = '/';
    expect(userPlaces().roots).not.toContain('/');
    expect(placeRefusal('/etc/shadow', userPlaces())).toBe('outside');
  });

  test('leaves out the data folder it is given, as its real path', () => {
    const data = tempDir();
    expect(placeRefusal(join(data, 'vault.key'), userPlaces({ dataDir: data }))).toBe('data_folder');
    expect(placeRefusal(join(data, 'vault.key'), userPlaces())).toBeNull();
  });
});

// The places of a path typed at the shell (`skimmer import`): anywhere the person running the command could read it,
// but the system trees and the data folder.
describe('shellPlaces', () => {
  const data = tempDir();
  const shell = shellPlaces({ dataDir: data });

  test.each([
    ['/var/mail/ann', null],
    ['/srv/checkout/fixtures/demo/inbox.mbox', null],
    ['/data/mail/Inbox', null],
    ['/home/ann/.thunderbird/profile/Mail/Inbox', null],
    ['/proc/self/environ', 'system'],
    ['/sys/kernel/notes', 'system'],
    ['/dev/zero', 'system'],
  ] as const)('%s is %s', (path, expected) => {
    expect(placeRefusal(path, shell)).toBe(expected);
    // The renderer's places still refuse what lies outside them.
    if (expected === null && !path.startsWith('/home/')) expect(placeRefusal(path, places)).toBe('outside');
  });

  test('leaves out the data folder it is given, as its real path', () => {
    expect(placeRefusal(join(data, 'vault.key'), shell)).toBe('data_folder');
    expect(placeRefusal(join(data, 'vault.key'), shellPlaces())).toBeNull();
  });
});

describe('openUserFile', () => {
  const dir = tempDir();

  test('refuses a file over its bound from the descriptor, before reading it', async () => {
    makeSparse(join(dir, 'big.txt'), 60 * 1024 * 1024);
    await expect(openUserFile(join(dir, 'big.txt'), userPlaces(), 50 * 1024 * 1024)).rejects.toMatchObject({
      reason: 'too_large',
      message: 'This file is larger than 50 MB.',
    });
  });

  test('reads a regular file whole, as its bytes', async () => {
    const bytes = Buffer.from([0, 1, 2, 255, 10, 13]);
    writeFileSync(join(dir, 'bytes.bin'), bytes);
    expect(await readUserFile(join(dir, 'bytes.bin'), userPlaces(), 1024)).toEqual(bytes);
  });

  test('reads a file of more than one read step in full', async () => {
    const text = 'x'.repeat(3 * 1024 * 1024 + 17);
    writeFileSync(join(dir, 'long.txt'), text);
    expect((await readUserFile(join(dir, 'long.txt'), userPlaces(), 50 * 1024 * 1024)).toString()).toBe(text);
  });
});

describe("readUserFileSync, the import worker's reader, under the same rule", () => {
  const dir = tempDir();
  const data = tempDir();
  writeFileSync(join(dir, 'a.eml'), 'Subject: a\r\n\r\nbody');
  writeFileSync(join(data, 'vault.key'), 'secret');
  symlinkSync('/etc/hostname', join(dir, 'out.eml'));
  symlinkSync(join(data, 'vault.key'), join(dir, 'key.eml'));
  makeFifo(join(dir, 'pipe.eml'));
  makeSparse(join(dir, 'big.eml'), 2 * 1024 * 1024);
  const rule = userPlaces({ dataDir: data });
  const sync = async (path: string, max: number) => readUserFileSync(path, rule, max);
  const promised = (path: string, max: number) => readUserFile(path, rule, max);

  test.each([
    ['a link out of your places', 'out.eml', 'outside'],
    ["a link into Skimmer's data folder", 'key.eml', 'data_folder'],
    ['a pipe', 'pipe.eml', 'not_regular'],
    ['a file over the bound', 'big.eml', 'too_large'],
    ['a missing file', 'gone.eml', 'missing'],
  ])('refuses %s as readUserFile does', async (_name, file, reason) => {
    const path = join(dir, file);
    await expect(promised(path, 1024 * 1024)).rejects.toMatchObject({ reason });
    await expect(sync(path, 1024 * 1024)).rejects.toMatchObject({ reason });
  });

  test('reads a regular file whole, as readUserFile does', async () => {
    const path = join(dir, 'a.eml');
    expect(readUserFileSync(path, rule, 1024)).toEqual(await readUserFile(path, rule, 1024));
    expect(readUserFileSync(path, rule, 1024).toString()).toBe('Subject: a\r\n\r\nbody');
  });
});
