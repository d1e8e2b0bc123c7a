import { chmodSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { tempDir } from '../../test/support/temp.ts';
import { checkpointWhenLarge, openDatabase } from './open.ts';

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

test('a batch writer copies its WAL back after a batch once it is past 64 MB, never inside the commit', () => {
  const file = join(tempDir(), 'large.sqlite');
  const db = openDatabase(file, { batches: true });
  db.exec('CREATE TABLE blobs (b BLOB NOT NULL) STRICT');
  const insert = db.prepare('INSERT INTO blobs (b) VALUES (?)');
  const commit = (megabytes: number) =>
    db.transaction(() => {
      for (let i = 0; i < megabytes * 16; i++) insert.run(Buffer.alloc(64 * 1024, i));
    })();
  const before = statSync(file).size;
  commit(10);
  checkpointWhenLarge(db);
  // 10 MB: left in the WAL.
  expect(statSync(file).size - before).toBeLessThan(1024 * 1024);
  commit(60);
  // Past 64 MB, the commit itself copied nothing…
  expect(statSync(file).size - before).toBeLessThan(1024 * 1024);
  checkpointWhenLarge(db);
  // … the call after it did.
  expect(statSync(file).size - before).toBeGreaterThan(70 * 1000 * 1000);
  db.close();
});

test('an ordinary connection copies a 10 MB commit into the database when it commits', () => {
  const dir = tempDir();
  expect(commitTenMegabytes(join(dir, 'default.sqlite'), false)).toBeGreaterThan(10 * 1000 * 1000);
});

// The usual umask (022) over a data folder that already exists with the usual mode (0755): what a user who
// points --data at a folder of their own gets.
function openFolder(): string {
  const dir = tempDir();
  chmodSync(dir, 0o755);
  return dir;
}

function modeOf(path: string): number {
  return statSync(path).mode & 0o777;
}

test('creates the database and its WAL and shared-memory files 0600 in a 0755 folder', () => {
  const before = process.umask(0o022);
  try {
    const file = join(openFolder(), 'skimmer.db');
    const db = openDatabase(file);
    db.exec('CREATE TABLE t (x INTEGER) STRICT; INSERT INTO t VALUES (1)');
    expect([modeOf(file), modeOf(`${file}-wal`), modeOf(`${file}-shm`)]).toEqual([0o600, 0o600, 0o600]);
    db.close();
  } finally {
    process.umask(before);
  }
});

test('tightens a database an older version left readable by others', () => {
  const file = join(openFolder(), 'skimmer.db');
  writeFileSync(file, '');
  chmodSync(file, 0o644);
  openDatabase(file).close();
  expect(modeOf(file)).toBe(0o600);
});
