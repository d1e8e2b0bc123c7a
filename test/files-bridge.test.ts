// The file browser's channel (files:browse) and the system dialog's (files:pick) through the bridge's dispatch,
// with the app's own places and data folder: every answer parsed with the contract.
import { mkdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { createApp } from '../electron/app.ts';
import { call, callRaw } from './support/bridge.ts';
import { tempDir } from './support/temp.ts';

const dataDir = realpathSync(tempDir());
const app = createApp({ dataDir, mode: 'browser' });
afterAll(() => app.close());

const mail = realpathSync(tempDir('skimmer-pick-'));
mkdirSync(join(mail, 'Maildir', 'cur'), { recursive: true });
mkdirSync(join(mail, 'Maildir', 'new'));
writeFileSync(join(mail, 'archive.mbox'), 'From a@b Sat Jan  1 00:00:00 2000\n\nhi\n');
symlinkSync(dataDir, join(mail, 'skimmer-data'));
symlinkSync('/etc', join(mail, 'etc'));

describe('files:browse', () => {
  test('starts in the home folder, among the user’s places', async () => {
    const listing = await call(app, 'files:browse', {});
    expect(listing.dir).toBe(realpathSync(homedir()));
    expect(listing.crumbs).toEqual([{ name: 'Home', path: listing.dir }]);
    expect(listing.places.map((p) => p.name)).toEqual(expect.arrayContaining(['Home', 'Temporary folder']));
  });

  test('lists a Maildir as Maildir and an mbox as mbox, and leaves out links to the data folder and out', async () => {
    const listing = await call(app, 'files:browse', { dir: mail });
    expect(listing.entries.map((e) => [e.name, e.kind, e.looks])).toEqual([
      ['Maildir', 'folder', 'maildir'],
      ['archive.mbox', 'file', 'mbox'],
    ]);
    expect(listing.crumbs.map((c) => c.name)).toEqual(['Temporary folder', basename(mail)]);
  });

  test('refuses Skimmer’s data folder, and its parent’s listing leaves it out', async () => {
    expect(await callRaw(app, 'files:browse', { dir: dataDir })).toMatchObject({
      ok: false,
      error: { code: 'forbidden', message: "This is Skimmer's own data folder." },
    });
    const parent = await call(app, 'files:browse', { dir: dirname(dataDir), filter: basename(dataDir) });
    expect(parent.entries).toEqual([]);
  });

  test('refuses a folder outside the places, a link out and a relative path', async () => {
    for (const dir of ['/etc', join(mail, 'etc'), '/proc/self/fd', 'mail']) {
      expect(await callRaw(app, 'files:browse', { dir })).toMatchObject({
        ok: false,
        error: { code: 'forbidden' },
      });
    }
  });

  test('refuses a request its schema refuses before anything is read', async () => {
    for (const bad of [{ dir: '' }, { dir: 'x'.repeat(4097) }, { dir: mail, extra: 1 }, { filter: 7 }]) {
      expect(await callRaw(app, 'files:browse', bad)).toMatchObject({
        ok: false,
        error: { code: 'invalid_request' },
      });
    }
  });
});

describe('files:pick', () => {
  test('says there is no system dialog in browser mode, so the page browses instead', async () => {
    expect(await call(app, 'files:pick', { purpose: 'mail', kind: 'folders' })).toEqual({
      available: false,
      paths: [],
    });
  });
});
