// Documents over the bridge (issue 7): import from paths the user chose (a bad file is a sentence beside
// the good ones), list, and search beside mail with the page each hit stands on.
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createApp } from '../electron/app.ts';
import { call } from './support/bridge.ts';
import { makePdf } from './support/documents.ts';
import { GiB, makeFifo, makeSocket, makeSparse } from './support/special-files.ts';
import { tempDir } from './support/temp.ts';

const dataDir = tempDir();
const app = createApp({ dataDir, mode: 'browser' });
const dir = tempDir();
beforeAll(async () => {
  writeFileSync(join(dir, 'handbook.pdf'), await makePdf(['Welcome.', 'Expenses are paid monthly.']));
  writeFileSync(join(dir, 'notes.txt'), 'Parking is behind the office.\n');
  writeFileSync(join(dir, 'broken.pdf'), 'not a pdf at all');
});
afterAll(() => app.close());

describe('documents over the bridge', () => {
  test('imports what it can read and names what it cannot', async () => {
    const r = await call(app, 'documents:import', {
      paths: [
        join(dir, 'handbook.pdf'),
        join(dir, 'notes.txt'),
        join(dir, 'broken.pdf'),
        join(dir, 'missing.md'),
      ],
    });
    expect(r.imported.map((d) => [d.name, d.chunks, d.duplicate])).toEqual([
      ['handbook.pdf', 2, false],
      ['notes.txt', 1, false],
    ]);
    expect(r.failed).toEqual([
      { path: join(dir, 'broken.pdf'), reason: 'broken.pdf could not be read as a PDF file.' },
      { path: join(dir, 'missing.md'), reason: 'missing.md: No such file or folder.' },
    ]);
    expect((await call(app, 'documents:list', {})).map((d) => d.name).sort()).toEqual([
      'handbook.pdf',
      'notes.txt',
    ]);
  });

  test('finds the page a word stands on', async () => {
    const hits = await call(app, 'documents:search', { query: 'expenses' });
    expect(hits).toEqual([
      {
        id: expect.stringMatching(/c2$/),
        documentId: expect.any(Number),
        name: 'handbook.pdf',
        location: 'page 2',
        snippet: expect.stringContaining('Expenses'),
      },
    ]);
  });
});

// The red-team finding (files/safe-open.ts, DESIGN §13): each of these was read, hung the server or crashed it.
describe("documents:import opens only regular files in the user's places", () => {
  const hostile = tempDir();
  const outside =
    'Skimmer opens files only from your home folder, the temporary folder and removable drives: copy it there first.';
  const system = 'This is a system file (under /proc, /sys or /dev), not one of yours.';
  beforeAll(async () => {
    makeFifo(join(hostile, 'fifo.txt'));
    symlinkSync('/dev/zero', join(hostile, 'zero.txt'));
    // Over 2 GiB, so an importer that reads before it checks fails on the read, not on the size.
    makeSparse(join(hostile, 'huge.txt'), 3 * GiB);
    symlinkSync('/etc/shadow', join(hostile, 'shadow-link.txt'));
    symlinkSync('/proc/self/environ', join(hostile, 'env.txt'));
    mkdirSync(join(hostile, 'folder.txt'));
    await makeSocket(join(hostile, 'socket.txt'));
    symlinkSync(join(hostile, 'loop-b.txt'), join(hostile, 'loop-a.txt'));
    symlinkSync(join(hostile, 'loop-a.txt'), join(hostile, 'loop-b.txt'));
    symlinkSync(join(dataDir, 'vault.key'), join(hostile, 'key.txt'));
    writeFileSync(join(dataDir, 'inside.txt'), 'kept in the data folder\n');
  });

  test.each([
    ['a FIFO, at once and without waiting for a writer', 'fifo.txt', 'This is a pipe, not a file.'],
    ['a link to /dev/zero', 'zero.txt', system],
    ['a sparse file over 50 MB, by its size', 'huge.txt', 'This file is larger than 50 MB.'],
    ['a link to /etc/shadow', 'shadow-link.txt', outside],
    ['a link to /proc/self/environ', 'env.txt', system],
    ['a folder named like a document', 'folder.txt', 'This is a folder, not a file.'],
    ['a socket', 'socket.txt', 'This is a socket, not a file.'],
    ['a link that loops', 'loop-a.txt', 'This link leads round in a loop.'],
    ["a link to the vault key in Skimmer's data folder", 'key.txt', "This is in Skimmer's own data folder."],
  ])('refuses %s', async (_, name, sentence) => {
    const path = join(hostile, name);
    const r = await call(app, 'documents:import', { paths: [path] });
    expect(r).toEqual({ imported: [], failed: [{ path, reason: `${name}: ${sentence}` }] });
  });

  test("refuses a file inside Skimmer's data folder, named directly", async () => {
    const path = join(dataDir, 'inside.txt');
    const r = await call(app, 'documents:import', { paths: [path] });
    expect(r.failed).toEqual([{ path, reason: "inside.txt: This is in Skimmer's own data folder." }]);
  });

  test('imports a regular file and a link to one in the temporary folder', async () => {
    writeFileSync(join(hostile, 'plain.txt'), 'A plain note.\n');
    writeFileSync(join(hostile, 'target.md'), '# Linked\n\nA linked note.\n');
    symlinkSync(join(hostile, 'target.md'), join(hostile, 'link.md'));
    const r = await call(app, 'documents:import', {
      paths: [join(hostile, 'plain.txt'), join(hostile, 'link.md')],
    });
    expect(r.failed).toEqual([]);
    expect(r.imported.map((d) => [d.name, d.duplicate])).toEqual([
      ['plain.txt', false],
      ['link.md', false],
    ]);
  });
});
