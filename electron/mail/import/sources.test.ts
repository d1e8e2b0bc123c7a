import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { eml, tempDir } from '../../../test/support/temp.ts';
import { userPlaces } from '../../files/safe-open.ts';
import { planImport, readUnit, splitMbox } from './sources.ts';

const mbox = [
  'From alice@example.com Sun Nov 29 10:00:00 2026',
  'Subject: one',
  '',
  'first body',
  '>From the escaped line',
  '>>From a doubly escaped line',
  'From inside a paragraph stays (no blank line before it)',
  '',
  'From bob@example.com Sun Nov 29 11:00:00 2026',
  'Subject: two',
  '',
  'second body',
  '',
].join('\n');

async function* chunksOf(text: string, size: number): AsyncGenerator<Buffer> {
  const buf = Buffer.from(text);
  for (let i = 0; i < buf.length; i += size) yield buf.subarray(i, i + size);
}

async function split(text: string, size: number) {
  const out: { offset: number; text: string }[] = [];
  for await (const p of splitMbox(chunksOf(text, size)))
    out.push({ offset: p.offset, text: p.raw.toString() });
  return out;
}

describe('splitMbox', () => {
  test('splits messages, drops the From_ line and unescapes one ">" (mboxrd)', async () => {
    const parts = await split(mbox, 1 << 20);
    expect(parts.map((p) => p.text)).toEqual([
      'Subject: one\n\nfirst body\nFrom the escaped line\n>From a doubly escaped line\nFrom inside a paragraph stays (no blank line before it)\n\n',
      'Subject: two\n\nsecond body\n',
    ]);
    expect(parts[1]?.offset).toBe(mbox.indexOf('From bob'));
  });

  test('gives the same messages whatever the read chunk size', async () => {
    const whole = await split(mbox, 1 << 20);
    for (const size of [1, 2, 3, 5, 7, 13, 64]) expect(await split(mbox, size)).toEqual(whole);
  });

  test('handles CRLF mbox files', async () => {
    const crlf = mbox.replace(/\n/g, '\r\n');
    const parts = await split(crlf, 4);
    expect(parts).toHaveLength(2);
    expect(parts[1]?.text.startsWith('Subject: two')).toBe(true);
  });

  test('refuses a file that does not start with a From_ line', async () => {
    await expect(split('Subject: nope\n\nbody\n', 64)).rejects.toThrow('not an mbox');
  });
});

describe('planImport', () => {
  test("finds eml files, mbox files (Thunderbird's without an extension) and Maildir folders (with Maildir++ subfolders), skipping other files", async () => {
    const root = tempDir();
    writeFileSync(join(root, 'a.eml'), eml({ subject: 'a' }));
    writeFileSync(join(root, 'notes.txt'), 'not mail');
    writeFileSync(join(root, 'archive.mbox'), mbox);
    const md = join(root, 'Mail');
    for (const d of ['cur', 'new', 'tmp', '.Work/cur', '.Work/new', '.Work/tmp'])
      mkdirSync(join(md, d), { recursive: true });
    writeFileSync(join(md, 'cur', '1:2,S'), eml({ subject: 'seen' }));
    writeFileSync(join(md, 'new', '2'), eml({ subject: 'new' }));
    writeFileSync(join(md, 'tmp', '3'), eml({ subject: 'in delivery, not yet mail' }));
    writeFileSync(join(md, '.Work', 'new', '4'), eml({ subject: 'work' }));
    // A Thunderbird profile's folder: mbox files without an extension, their .msf indexes, other files.
    const tb = join(root, 'Local Folders');
    mkdirSync(tb);
    writeFileSync(join(tb, 'Inbox'), mbox);
    writeFileSync(join(tb, 'Inbox.msf'), '// <!-- <mdb:mork:z v="1.4"/> -->');
    writeFileSync(join(tb, 'README'), 'not mail');

    const plan = await planImport([root, join(root, 'missing.eml')], userPlaces());
    const seen = plan.units.map((u) => [u.kind, u.folder.name, u.path.slice(root.length)]);
    expect(seen).toEqual([
      ['mbox', 'Inbox', '/Local Folders/Inbox'],
      ['eml', 'Mail', '/Mail/cur/1:2,S'],
      ['eml', 'Mail', '/Mail/new/2'],
      ['eml', 'Work', '/Mail/.Work/new/4'],
      ['eml', root.split('/').pop(), '/a.eml'],
      ['mbox', 'archive', '/archive.mbox'],
    ]);
    expect(plan.problems).toEqual([{ source: join(root, 'missing.eml'), reason: 'No such file or folder.' }]);
    expect(plan.bytesTotal).toBe(plan.units.reduce((n, u) => n + u.size, 0));
  });

  // Under an import of the home folder (or, from the shell, of `/`), a folder the rule refuses is passed by, not
  // walked into: its files would each be refused, and in /proc listing them is reading the processes.
  test("does not walk into Skimmer's data folder inside a folder it walks", async () => {
    const root = tempDir();
    const data = join(root, '.config', 'Skimmer');
    mkdirSync(data, { recursive: true });
    writeFileSync(join(data, 'Inbox'), mbox);
    writeFileSync(join(root, 'a.eml'), eml({ subject: 'a' }));
    const plan = await planImport([root], userPlaces({ dataDir: data }));
    expect(plan.units.map((u) => u.path)).toEqual([join(root, 'a.eml')]);
    expect(plan.problems).toEqual([]);
  });

  test('reads an mbox unit as one raw message per entry, with its offset as the source', async () => {
    const root = tempDir();
    const file = join(root, 'x.mbox');
    writeFileSync(file, mbox);
    const plan = await planImport([file], userPlaces());
    const raws = [];
    for await (const r of readUnit(plan.units[0] as NonNullable<(typeof plan.units)[0]>, userPlaces()))
      raws.push(r);
    expect(raws.map((r) => r.source)).toEqual([`${file}#0`, `${file}#${mbox.indexOf('From bob')}`]);
  });
});
