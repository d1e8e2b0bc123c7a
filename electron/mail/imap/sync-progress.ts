// What a folder's sync reports as it goes (issue 28, "the first minutes with a real account"): how many of the
// messages it set out to download are stored, the recent rate and the time left at that rate. The rate is the
// folder's own, from when its download started (after the UID list), so another folder's work does not skew it;
// there is no time left until one batch is stored. Pure apart from the clock; tested in
// sync-progress.test.ts.
export type SyncProgress = {
  folder: string;
  /** Messages of this round's download of the folder that are stored (or linked, a move or copy). */
  done: number;
  /** Messages this round set out to download; after an interrupted first sync, only what was left. */
  total: number;
  /** Messages a second over the last 10 s or so, whole. */
  perSecond: number;
  /** Whole seconds left at that rate; null before the first stored batch. */
  etaSeconds: number | null;
};

// The rate is read over about the last 10 s of stored batches: a first sync speeds up after its first batches
// (the fetcher thread's login, batches growing from 50 to 1,000), so the rate from the start would say several
// times too long early on (bench/first-sync-progress.ts).
const windowMs = 10_000;

export function folderProgress(
  folder: string,
  total: number,
  now: () => number = Date.now,
): (done: number) => SyncProgress {
  const samples = [{ at: now(), done: 0 }];
  return (done) => {
    const at = now();
    samples.push({ at, done });
    // Keep the newest sample at least windowMs old as the window's start, and nothing older.
    while (samples.length > 2 && at - (samples[1] as { at: number }).at >= windowMs) samples.shift();
    const from = samples[0] as { at: number; done: number };
    const seconds = (at - from.at) / 1000;
    const rate = done > from.done && seconds > 0 ? (done - from.done) / seconds : 0;
    const etaSeconds = done >= total ? 0 : rate > 0 ? Math.ceil((total - done) / rate) : null;
    return { folder, done, total, perSecond: Math.round(rate), etaSeconds };
  };
}
