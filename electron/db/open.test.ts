import { statSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { tempDir } from '../../test/support/temp.ts';
import { openDatabase } from './open.ts';

// 10 MB of rows in one commit: past the default checkpoint limit (4 MB of WAL), under the batch writers' (64 MB).
function commitTenMegabytes(file: string, batches: boolean): number {
  const db = openDatabase(file, { batches });
  const before = statSync(file).size;
  db.exec('CREATE TABLE blobs (b BLOB NOT NULL) STRICT');
  const insert = db.prepare('INSERT INTO blobs (b) VALUES (?)');
  db.transaction(() => {
    for (let i = 0; i < 160; i++) insert.run(Buffer.alloc(64 * 1024, i));
  })();
  const grown = statSync(file).size - before;
  db.close();
  return grown;
}

test('a batch writer leaves a 10 MB commit in the WAL instead of copying it into the database at once', () => {
  const dir = tempDir();
  expect(commitTenMegabytes(join(dir, 'batches.sqlite'), true)).toBeLessThan(1024 * 1024);
});

test('an ordinary connection copies a 10 MB commit into the database when it commits', () => {
  const dir = tempDir();
  expect(commitTenMegabytes(join(dir, 'default.sqlite'), false)).toBeGreaterThan(10 * 1000 * 1000);
});
