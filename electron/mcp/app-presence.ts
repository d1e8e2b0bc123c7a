// Whether the Skimmer app is running, for `skimmer mcp` (DESIGN §13, "Outside agents"): a call that needs the
// user's approval, from a client that cannot ask the user itself, can only wait for the app's card. The app
// rewrites one row every `beatMs`; the MCP server takes the app for gone when the row is older than
// `staleMs` (a crashed app stops beating), or absent (an app that closed removes it). Owns `app_presence`.
import type { Db } from '../db/open.ts';

const beatMs = 2000;
/** Three missed beats: a busy main thread may be a beat late, a stopped app is gone within seconds. */
const staleMs = 3 * beatMs;

/** How soon a beat that found the write lock taken tries again. */
const retryMs = 200;

/**
 * The app's side: beats until stopped, and removes its row when it stops. A beat never waits for the write lock:
 * it runs on the main thread, and an import or sync batch holds the lock for up to seconds (bench/main-stall.ts:
 * a beat waited 1.8 s during a first sync). One that finds it taken tries again shortly; three missed beats
 * are needed before the app looks gone.
 */
export function startPresence(db: Db, now: () => number = Date.now): () => void {
  const beat = db.prepare<[number, number]>(
    `INSERT INTO app_presence (id, pid, beat_at) VALUES (1, ?, ?)
     ON CONFLICT (id) DO UPDATE SET pid = excluded.pid, beat_at = excluded.beat_at`,
  );
  const leave = db.prepare<[number]>('DELETE FROM app_presence WHERE pid = ?');
  let retry: NodeJS.Timeout | null = null;
  const tryBeat = () => {
    retry = null;
    if (!withoutWaiting(db, () => beat.run(process.pid, now()))) {
      retry = setTimeout(tryBeat, retryMs);
      retry.unref();
    }
  };
  tryBeat();
  const timer = setInterval(() => {
    if (!retry) tryBeat();
  }, beatMs);
  timer.unref();
  return () => {
    clearInterval(timer);
    if (retry) clearTimeout(retry);
    leave.run(process.pid);
  };
}

// Runs `write` with the connection's busy timeout off (this thread runs one statement at a time, so no other
// statement sees it off); false when another connection holds the write lock.
function withoutWaiting(db: Db, write: () => unknown): boolean {
  const timeout = db.pragma('busy_timeout', { simple: true }) as number;
  db.pragma('busy_timeout = 0');
  try {
    write();
    return true;
  } catch (e) {
    if ((e as { code?: string }).code === 'SQLITE_BUSY') return false;
    throw e;
  } finally {
    db.pragma(`busy_timeout = ${timeout}`);
  }
}

/** The MCP server's side: is an app there to show a card? */
export function appRunning(db: Db, now: () => number = Date.now): boolean {
  const row = db.prepare<[], { beat_at: number }>('SELECT beat_at FROM app_presence WHERE id = 1').get();
  return row !== undefined && now() - row.beat_at < staleMs;
}
