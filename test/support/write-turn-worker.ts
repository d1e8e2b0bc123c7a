// A worker that stores ten rows as one batch through storeGivingWay (db/write-turn.ts), for test/write-turn.test.ts:
// at the third row it waits until the main thread wants to write, so the main thread's write comes while a batch
// is open, every time.
import { parentPort, workerData } from 'node:worker_threads';
import { openDatabase } from '../../electron/db/open.ts';
import { storeGivingWay, type WriteTurn } from '../../electron/db/write-turn.ts';

const { dbFile, turn } = workerData as { dbFile: string; turn: WriteTurn };
const db = openDatabase(dbFile);
const insert = db.prepare<[string]>('INSERT INTO turns (who) VALUES (?)');
const parts: number[] = [];
let inPart = 0;
storeGivingWay(
  db,
  turn,
  Array.from({ length: 10 }, (_, i) => i),
  (i) => {
    insert.run(`worker ${i}`);
    inPart += 1;
    if (i === 2) {
      parentPort?.postMessage({ type: 'inside' });
      // Polled: the main thread's announcement is a count in shared memory, not a notification.
      while (Atomics.load(turn, 0) === 0) Atomics.wait(turn, 0, 0, 5);
    }
  },
  () => {
    parts.push(inPart);
    inPart = 0;
  },
);
db.close();
parentPort?.postMessage({ type: 'done', parts });
