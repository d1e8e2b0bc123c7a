// Documents over the bridge (issue 7): import from paths the user chose (a bad file is a sentence beside
// the good ones), list, and search beside mail with the page each hit stands on.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createApp } from '../electron/app.ts';
import { call } from './support/bridge.ts';
import { makePdf } from './support/documents.ts';
import { tempDir } from './support/temp.ts';

const app = createApp({ dataDir: tempDir(), mode: 'browser' });
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
      { path: join(dir, 'missing.md'), reason: 'missing.md could not be read (is it there, and a file?).' },
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
