// Hostile mail at import (DESIGN §11, fixtures/hostile/README.md): every message either imports or fails
// with a reason, the good messages around it are kept, and memory stays bounded.
import { copyFileSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { projectRoot } from '../electron/app.ts';
import { openDatabase } from '../electron/db/open.ts';
import { runImport } from '../electron/mail/import-run.ts';
import { hostileGenerated } from '../fixtures/hostile/generate.ts';
import type { ImportSummary } from '../shared/contract.ts';
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
  const { mkdirSync } = await import('node:fs');
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
