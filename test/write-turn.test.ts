// The main thread's right of way to the write lock (db/write-turn.ts, DESIGN §3): a worker's batch is cut where
// the main connection wants to write, so the main thread's write lands between two parts of the batch rather
// than after all of it; every item is still stored once, in order, each part committed with its closing step.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { describe, expect, test } from 'vitest';
import { openDatabase } from '../electron/db/open.ts';
import { announceWrites, createWriteTurn, storeGivingWay } from '../electron/db/write-turn.ts';
import { userPlaces } from '../electron/files/safe-open.ts';
import { startImportJob } from '../electron/mail/import/import-job.ts';
import { eml, tempDir } from './support/temp.ts';

function database() {
  const file = join(tempDir(), 'skimmer.db');
  const db = openDatabase(file);
  db.exec('CREATE TABLE turns (id INTEGER PRIMARY KEY, who TEXT NOT NULL)');
  return { file, db };
}

describe('the write turn', () => {
  test('with nobody else wanting to write, a batch is one transaction', () => {
    const { db } = database();
    const insert = db.prepare<[string]>('INSERT INTO turns (who) VALUES (?)');
    const closed: number[] = [];
    storeGivingWay(
      db,
      createWriteTurn(),
      ['a', 'b', 'c'],
      (w) => insert.run(w),
      () => closed.push(db.prepare('SELECT count(*) FROM turns').pluck().get() as number),
    );
    expect(closed).toEqual([3]);
    expect(db.prepare('SELECT who FROM turns ORDER BY id').pluck().all()).toEqual(['a', 'b', 'c']);
  });

  test('a batch is cut where the main thread wants to write: the part so far is committed, then the rest', () => {
    const { file, db } = database();
    const other = openDatabase(file);
    const turn = createWriteTurn();
    const insert = db.prepare<[string]>('INSERT INTO turns (who) VALUES (?)');
    // What another connection sees when each part closes: only what is committed.
    const seenByOther: number[] = [];
    storeGivingWay(
      db,
      turn,
      [0, 1, 2, 3, 4, 5],
      (i) => {
        insert.run(String(i));
        if (i === 1) Atomics.add(turn, 0, 1); // the main thread says it is about to write
      },
      () => {
        seenByOther.push(other.prepare('SELECT count(*) FROM turns').pluck().get() as number);
        // ... and has written by the time this part is committed.
        if (Atomics.load(turn, 0) > 0) Atomics.sub(turn, 0, 1);
      },
    );
    expect(seenByOther).toEqual([0, 2]);
    expect(db.prepare('SELECT who FROM turns ORDER BY id').pluck().all()).toEqual([
      '0',
      '1',
      '2',
      '3',
      '4',
      '5',
    ]);
    other.close();
  });

  test("the main connection's write lands inside a worker's batch, between its parts", async () => {
    const { file, db } = database();
    const turn = createWriteTurn();
    announceWrites(db, turn);
    const probe = db.prepare<[string]>('INSERT INTO turns (who) VALUES (?)');
    const worker = new Worker(new URL('./support/write-turn-worker.ts', import.meta.url), {
      workerData: { dbFile: file, turn },
    });
    const parts = await new Promise<number[]>((resolve, reject) => {
      worker.on('message', (m: { type: string; parts?: number[] }) => {
        // The worker is inside its batch, at its third row: this write is announced, waits for the part, lands.
        if (m.type === 'inside') probe.run('main');
        else resolve(m.parts ?? []);
      });
      worker.on('error', reject);
    });
    await worker.terminate();
    expect(db.prepare('SELECT who FROM turns ORDER BY id').pluck().all()).toEqual([
      'worker 0',
      'worker 1',
      'worker 2',
      'main',
      ...[3, 4, 5, 6, 7, 8, 9].map((i) => `worker ${i}`),
    ]);
    expect(parts).toEqual([3, 7]);
    // The count is back to nobody waiting.
    expect([...turn]).toEqual([0, 0]);
  });

  test('an import cut again and again by the main thread still stores every message once, indexed and counted', async () => {
    const dir = tempDir();
    const mbox = join(dir, 'mail.mbox');
    const total = 3000;
    const parts: string[] = [];
    for (let i = 0; i < total; i++)
      parts.push(
        `From x@example.com Sun Nov 29 10:00:00 2026\r\n${eml({
          id: `<turn${i}@turn.test>`,
          from: `Person ${i % 50} <p${i % 50}@turn.test>`,
          subject: `Turn ${i}`,
          body: `Message ${i} of the turn test.`,
        })}`,
      );
    writeFileSync(mbox, parts.join('\r\n'));
    const file = join(dir, 'skimmer.db');
    const db = openDatabase(file);
    const turn = createWriteTurn();
    announceWrites(db, turn);
    db.exec('CREATE TABLE IF NOT EXISTS turns (id INTEGER PRIMARY KEY, who TEXT NOT NULL)');
    const probe = db.prepare<[string]>('INSERT INTO turns (who) VALUES (?)');
    let over = false;
    let imported = -1;
    const job = startImportJob(
      file,
      [mbox],
      userPlaces({ dataDir: join(dir, 'data') }),
      (e) => {
        if (e.type === 'import_done') imported = e.summary.imported;
        if (e.type === 'import_done' || e.type === 'error') over = true;
      },
      { turn },
    );
    let writes = 0;
    while (!over) {
      probe.run(`main ${writes++}`);
      await new Promise((resolve) => setImmediate(resolve));
    }
    await job.done;
    expect(imported).toBe(total);
    expect(writes).toBeGreaterThan(0);
    const one = (sql: string) => db.prepare(sql).pluck().get();
    expect(one("SELECT count(DISTINCT message_id) FROM messages WHERE message_id LIKE '%turn.test%'")).toBe(
      total,
    );
    expect(one('SELECT count(*) FROM messages')).toBe(total);
    expect(one("SELECT count(*) FROM messages_fts WHERE messages_fts MATCH 'turn'")).toBe(total);
    // 50 senders, 60 messages each, every one counted once.
    expect(db.prepare("SELECT count FROM contacts WHERE address LIKE 'p%@turn.test'").pluck().all()).toEqual(
      Array(50).fill(total / 50),
    );
    expect(one('SELECT count(*) FROM turns')).toBe(writes);
    expect([...turn]).toEqual([0, 0]);
  }, 60_000);
});
