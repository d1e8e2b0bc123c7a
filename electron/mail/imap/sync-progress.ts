// What a folder's sync reports as it goes (issue 28, "the first minutes with a real account"): how many of the
// messages it set out to download are stored, the rate so far and the time left at that rate. The rate is the
// folder's own, from when its download started (after the UID list), so a slow first login or another folder's
// work does not skew it; there is no time left until one batch is stored. Pure apart from the clock; tested in
// sync-progress.test.ts.
export type SyncProgress = {
  folder: string;
  /** Messages of this round's download of the folder that are stored (or linked, a move or copy). */
  done: number;
  /** Messages this round set out to download; after an interrupted first sync, only what was left. */
  total: number;
  /** Messages a second so far, whole. */
  perSecond: number;
  /** Whole seconds left at the rate so far; null before the first stored batch. */
  etaSeconds: number | null;
};

export function folderProgress(
  folder: string,
  total: number,
  now: () => number = Date.now,
): (done: number) => SyncProgress {
  const start = now();
  return (done) => {
    const seconds = (now() - start) / 1000;
    const rate = done > 0 && seconds > 0 ? done / seconds : 0;
    const etaSeconds = done >= total ? 0 : rate > 0 ? Math.ceil((total - done) / rate) : null;
    return { folder, done, total, perSecond: Math.round(rate), etaSeconds };
  };
}
