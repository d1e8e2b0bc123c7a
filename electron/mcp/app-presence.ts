// Whether the Skimmer app is running, for `skimmer mcp` (DESIGN §13, "Outside agents"): a call that needs the
// user's approval, from a client that cannot ask the user itself, can only wait for the app's card. The app
// rewrites one row every `beatMs`; the MCP server takes the app for gone when the row is older than
// `staleMs` (a crashed app stops beating), or absent (an app that closed removes it). Owns `app_presence`.
import type { Db } from '../db/open.ts';

const beatMs = 2000;
/** Three missed beats: a busy main thread may be a beat late, a stopped app is gone within seconds. */
const staleMs = 3 * beatMs;

/** The app's side: beats until stopped, and removes its row when it stops. */
export function startPresence(db: Db, now: () => number = Date.now): () => void {
  const beat = db.prepare<[number, number]>(
    `INSERT INTO app_presence (id, pid, beat_at) VALUES (1, ?, ?)
     ON CONFLICT (id) DO UPDATE SET pid = excluded.pid, beat_at = excluded.beat_at`,
  );
  const leave = db.prepare<[number]>('DELETE FROM app_presence WHERE pid = ?');
  beat.run(process.pid, now());
  const timer = setInterval(() => beat.run(process.pid, now()), beatMs);
  timer.unref();
  return () => {
    clearInterval(timer);
    leave.run(process.pid);
  };
}

/** The MCP server's side: is an app there to show a card? */
export function appRunning(db: Db, now: () => number = Date.now): boolean {
  const row = db.prepare<[], { beat_at: number }>('SELECT beat_at FROM app_presence WHERE id = 1').get();
  return row !== undefined && now() - row.beat_at < staleMs;
}
