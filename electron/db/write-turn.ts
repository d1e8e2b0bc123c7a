// The main thread's right of way to the write lock (DESIGN §3, issue 18). SQLite lets one connection write at a
// time, and a write on the main connection waits (busy_timeout) while a worker commits a batch: during an import
// a write there (opening a message marks it read) held the bridge up to a batch, 83–105 ms at 500 messages
// (230–460 ms at 1,000, bench/main-stall.ts (d)). So the main connection says when it is about to write, with a
// counter in memory every thread shares, and a worker writing a long batch looks at it between two messages: it
// commits what it has stored, waits for the main thread's write to end, and goes on in a new transaction. The
// main thread then waits for one message and a commit, not for a batch.
import { checkpointWhenLarge, type Db } from './open.ts';

/**
 * Shared by the main thread and the workers it starts (worker_threads share a SharedArrayBuffer): [0] counts the
 * main thread's writes about to be made or being made, [1] the workers inside a batch's transaction.
 */
export type WriteTurn = Int32Array;
const wants = 0;
const holds = 1;

export function createWriteTurn(): WriteTurn {
  return new Int32Array(new SharedArrayBuffer(2 * Int32Array.BYTES_PER_ELEMENT));
}

/** Either side waits at most this long for the other, then goes on (and SQLite's busy timeout decides). */
const longestWaitMs = 2000;

// Waits while turn[at] is not 0, at most until `until`. Atomics.wait blocks the thread, the main one too (Node
// allows it there): it replaces SQLite's busy handler, which sleeps 1, 2, 5, 10, 15 ms… between its tries, and
// wakes the moment the other side is done rather than at its next try.
function waitForZero(turn: WriteTurn, at: number, until: number): void {
  for (let now = Date.now(); now < until; now = Date.now()) {
    const value = Atomics.load(turn, at);
    if (value === 0) return;
    Atomics.wait(turn, at, value, until - now);
  }
}

function announced<A extends unknown[], R>(turn: WriteTurn, write: (...args: A) => R): (...args: A) => R {
  return (...args) => {
    // Said first, then looked: a worker does the same the other way round (`storeGivingWay`), so at least one of
    // the two sees the other, and the worker is the one that gives way.
    Atomics.add(turn, wants, 1);
    try {
      waitForZero(turn, holds, Date.now() + longestWaitMs);
      return write(...args);
    } finally {
      Atomics.sub(turn, wants, 1);
      Atomics.notify(turn, wants);
    }
  };
}

/**
 * Makes the main connection announce each write: every statement that does not return rows, and every
 * transaction. Call it right after opening, before anything is prepared.
 */
export function announceWrites(db: Db, turn: WriteTurn): void {
  const prepare = db.prepare.bind(db);
  db.prepare = ((source: string) => {
    const statement = prepare(source);
    if (!statement.reader) statement.run = announced(turn, statement.run.bind(statement));
    return statement;
  }) as Db['prepare'];
  const transaction = db.transaction.bind(db);
  db.transaction = ((fn: Parameters<Db['transaction']>[0]) =>
    announced(turn, transaction(fn))) as unknown as Db['transaction'];
}

// A worker about to open a batch's transaction: says so, then looks whether the main thread wants to write; if
// it does, it takes that back and waits for the main thread's write to end (bounded), and tries again.
function enterBatch(turn: WriteTurn): void {
  const until = Date.now() + longestWaitMs;
  for (;;) {
    Atomics.add(turn, holds, 1);
    if (Atomics.load(turn, wants) === 0 || Date.now() >= until) return;
    leaveBatch(turn);
    waitForZero(turn, wants, until);
  }
}

function leaveBatch(turn: WriteTurn): void {
  Atomics.sub(turn, holds, 1);
  Atomics.notify(turn, holds);
}

/**
 * Stores `items` in transactions of `db` (each closed by `close`, as a batch is), cut where the main thread
 * wants to write: the part stored so far is committed, the worker gives way, and the rest follows in the next.
 * Every item is stored once, in order. After each part, with the lock let go, the WAL is copied back when it
 * has grown large (open.ts `checkpointWhenLarge`), so the main thread never waits for that copy.
 */
export function storeGivingWay<T>(
  db: Db,
  turn: WriteTurn | undefined,
  items: readonly T[],
  storeOne: (item: T) => void,
  close: () => void,
): void {
  const part = db.transaction((from: number): number => {
    let i = from;
    for (; i < items.length; i++) {
      if (i > from && turn && Atomics.load(turn, wants) > 0) break;
      storeOne(items[i] as T);
    }
    close();
    return i;
  });
  let at = 0;
  while (at < items.length) {
    if (turn) enterBatch(turn);
    try {
      at = part(at);
    } finally {
      if (turn) leaveBatch(turn);
    }
    checkpointWhenLarge(db);
  }
}
