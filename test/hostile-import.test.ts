// Hostile mail at import (DESIGN §11, fixtures/hostile/README.md): every message either imports or fails
// with a reason, the good messages around it are kept, and memory stays bounded.
import {
  copyFileSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createApp, projectRoot } from '../electron/app.ts';
import { openDatabase } from '../electron/db/open.ts';
import { FileRefusal, userPlaces } from '../electron/files/safe-open.ts';
import { runImport } from '../electron/mail/import/import-run.ts';
import { planImport, readUnit } from '../electron/mail/import/sources.ts';
import { hostileGenerated } from '../fixtures/hostile/generate.ts';
import type { ImportSummary } from '../shared/contract/index.ts';
import { importOver } from './support/bridge.ts';
import { GiB, makeFifo, makeSparse } from './support/special-files.ts';
import { eml, tempDir } from './support/temp.ts';

const hostileDir = join(projectRoot, 'fixtures', 'hostile');
const expectations = JSON.parse(readFileSync(join(hostileDir, 'expectations.json'), 'utf8')) as Record<
  string,
  { expect: 'import' | 'fail' }
>;
const generated = hostileGenerated();

const dir = tempDir();
const db = openDatabase(join(dir, 'skimmer.db'));
let summary: ImportSummary;
let peakRss = 0;

beforeAll(async () => {
  const mail = join(dir, 'mail');
  mkdirSync(mail);
  for (const f of readdirSync(hostileDir).filter((f) => f.endsWith('.eml')))
    copyFileSync(join(hostileDir, f), join(mail, f));
  for (const g of generated) writeFileSync(join(mail, `${g.name}.eml`), g.bytes);
  // Good messages sorted before, between and after the hostile ones.
  for (const name of ['0000-good', 'm-good', 'zzzz-good']) {
    writeFileSync(join(mail, `${name}.eml`), eml({ id: `<${name}@example.com>`, subject: name }));
  }
  const timer = setInterval(() => {
    peakRss = Math.max(peakRss, process.memoryUsage().rss);
  }, 20);
  ({ summary } = await runImport(db, [mail], { onProgress: () => {}, isCancelled: () => false }));
  clearInterval(timer);
}, 120_000);

const failedNames = () => summary.failed.map((f) => f.source.split('/').pop());
const cases = [
  ...Object.entries(expectations).map(([file, e]) => [file, e.expect] as const),
  ...generated.map((g) => [`${g.name}.eml`, g.expect] as const),
];

describe('hostile mail import', () => {
  test.each(cases)('%s: %s', (file, expected) => {
    if (expected === 'fail') {
      const failure = summary.failed.find((f) => f.source.endsWith(`/${file}`));
      expect(failure?.reason).toMatch(/\w+/);
    } else {
      expect(failedNames()).not.toContain(file);
      expect(db.prepare('SELECT count(*) FROM messages WHERE source LIKE ?').pluck().get(`%/${file}`)).toBe(
        1,
      );
    }
  });

  test('keeps the good messages around the hostile ones', () => {
    const subjects = db.prepare("SELECT subject FROM messages WHERE subject LIKE '%good'").pluck().all();
    expect(subjects.sort()).toEqual(['0000-good', 'm-good', 'zzzz-good']);
  });

  test('stores no NUL bytes and no attachment bytes', () => {
    const nul = db
      .prepare(
        "SELECT count(*) FROM messages WHERE instr(subject || body_text || coalesce(body_html, '') || message_id, char(0)) > 0",
      )
      .pluck()
      .get();
    expect(nul).toBe(0);
    const bomb = db
      .prepare(
        "SELECT attachments_json, length(body_text) AS n FROM messages WHERE source LIKE '%base64-bomb%'",
      )
      .get() as {
      attachments_json: string;
      n: number;
    };
    expect(JSON.parse(bomb.attachments_json)[0].size).toBeGreaterThan(30 * 1024 * 1024);
    expect(bomb.n).toBeLessThan(10_000);
  });

  test('stays within a bounded amount of memory (50 MB attachment included)', () => {
    expect(peakRss).toBeLessThan(1.5 * 1024 ** 3);
  });

  test('the search index still works after the hostile import', () => {
    expect(
      db.prepare("SELECT count(*) FROM messages_fts WHERE messages_fts MATCH 'good'").pluck().get(),
    ).toBe(3);
  });
});

// The same file rule as documents (files/safe-open.ts, DESIGN §13): a path named to mail:import, or a file found in
// a folder it names, is read only if it is a regular file in the user's places, within the message bound.
describe("paths that are not the user's mail", () => {
  const files = tempDir();
  const data = tempDir();
  const places = userPlaces({ dataDir: data });
  const outside =
    'Skimmer opens files only from your home folder, the temporary folder and removable drives: copy it there first.';
  const system = 'This is a system file (under /proc, /sys or /dev), not one of yours.';
  const importDb = () => openDatabase(join(tempDir(), 'skimmer.db'));
  beforeAll(() => {
    symlinkSync('/etc/shadow', join(files, 'shadow.eml'));
    symlinkSync('/dev/zero', join(files, 'zero.eml'));
    makeFifo(join(files, 'fifo.eml'));
    writeFileSync(join(data, 'kept.eml'), eml({ id: '<kept@data>', subject: 'in the data folder' }));
    writeFileSync(join(files, 'real.eml'), eml({ id: '<real@x>', subject: 'linked message' }));
    symlinkSync(join(files, 'real.eml'), join(files, 'link.eml'));
  });

  test.each([
    ['a link to /etc/shadow', () => join(files, 'shadow.eml'), outside],
    ['/etc/shadow named directly', () => '/etc/shadow', outside],
    ['/proc/self/environ named directly', () => '/proc/self/environ', system],
    ['a link to /dev/zero', () => join(files, 'zero.eml'), system],
    ['a FIFO', () => join(files, 'fifo.eml'), 'This is a pipe, not a file.'],
    [
      "a message in Skimmer's data folder",
      () => join(data, 'kept.eml'),
      "This is in Skimmer's own data folder.",
    ],
  ])('refuses %s before reading it', async (_, path, reason) => {
    const db = importDb();
    const { summary } = await runImport(db, [path()], {
      onProgress: () => {},
      isCancelled: () => false,
      places,
    });
    expect(summary).toEqual({ imported: 0, duplicates: 0, failed: [{ source: path(), reason }] });
    expect(db.prepare('SELECT count(*) FROM messages').pluck().get()).toBe(0);
  });

  test('refuses a message file over 100 MB in a folder by its size, and imports the rest', async () => {
    const folder = join(files, 'big');
    mkdirSync(folder);
    // Over 2 GiB, so an import that reads before it checks fails on the read, not on the size.
    makeSparse(join(folder, 'huge.eml'), 3 * GiB);
    writeFileSync(join(folder, 'small.eml'), eml({ id: '<small@x>', subject: 'small' }));
    const { summary } = await runImport(importDb(), [folder], {
      onProgress: () => {},
      isCancelled: () => false,
      places,
    });
    expect(summary).toEqual({
      imported: 1,
      duplicates: 0,
      failed: [{ source: join(folder, 'huge.eml'), reason: 'This file is larger than 100 MB.' }],
    });
  });

  test('imports a link to a message file in the temporary folder', async () => {
    const db = importDb();
    const { summary } = await runImport(db, [join(files, 'link.eml')], {
      onProgress: () => {},
      isCancelled: () => false,
      places,
    });
    expect(summary).toEqual({ imported: 1, duplicates: 0, failed: [] });
    expect(db.prepare('SELECT subject FROM messages').pluck().all()).toEqual(['linked message']);
  });

  test('refuses a message file swapped for a FIFO after the plan, without waiting for a writer', async () => {
    const folder = join(files, 'swap');
    mkdirSync(folder);
    writeFileSync(join(folder, 'a.eml'), eml({ subject: 'soon a pipe' }));
    const plan = await planImport([folder], places);
    unlinkSync(join(folder, 'a.eml'));
    makeFifo(join(folder, 'a.eml'));
    const unit = plan.units[0];
    if (!unit) throw new Error('the plan found no message');
    const read = async () => {
      for await (const _ of readUnit(unit, places));
    };
    await expect(read()).rejects.toEqual(new FileRefusal('not_regular', 'This is a pipe, not a file.'));
  });
});

describe('mail:import over the bridge', () => {
  const dataDir = tempDir();
  const app = createApp({ dataDir, mode: 'browser' });
  afterAll(() => app.close());
  const files = tempDir();

  const importPaths = (paths: string[]) => importOver(app, { paths });

  test("refuses links to the process's environment and to the vault key in its data folder", async () => {
    symlinkSync('/proc/self/environ', join(files, 'env.eml'));
    symlinkSync(join(dataDir, 'vault.key'), join(files, 'key.eml'));
    const paths = [join(files, 'env.eml'), join(files, 'key.eml')];
    expect(await importPaths(paths)).toMatchObject({
      type: 'import_done',
      summary: {
        imported: 0,
        failed: [
          {
            source: paths[0],
            reason: 'This is a system file (under /proc, /sys or /dev), not one of yours.',
          },
          { source: paths[1], reason: "This is in Skimmer's own data folder." },
        ],
      },
    });
  });
});
