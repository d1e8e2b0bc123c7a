// A folder's sync progress as one sentence, the same in the app's folder list and on `skimmer account sync`'s
// stderr: "Syncing Inbox: 1,200 of 20,000 — about 2 min left". The folder's name comes from the mail server, so
// controls (a terminal's escape sequences) and direction controls are taken out of it; the caller shows the
// sentence as text. Pure; tested in sync-progress-text.test.ts.

type Progress = { folder: string; done: number; total: number; etaSeconds: number | null };

// C0 and C1 controls, and the embeddings, overrides, isolates and marks that reorder what is shown.
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is removed
const unshown = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]/g;

/** "a few seconds left", "about 30 s left", "about 2 min left", "about 1.5 h left". */
export function timeLeftText(seconds: number): string {
  if (seconds < 10) return 'a few seconds left';
  if (seconds < 55) return `about ${Math.max(10, Math.round(seconds / 10) * 10)} s left`;
  if (seconds < 90 * 60) return `about ${Math.max(1, Math.round(seconds / 60))} min left`;
  return `about ${Math.round(seconds / 360) / 10} h left`;
}

export function syncProgressText(p: Progress, locale?: string): string {
  const name = p.folder.replace(unshown, '');
  if (p.total === 0) return `Syncing ${name}…`;
  const counts = `${p.done.toLocaleString(locale)} of ${p.total.toLocaleString(locale)}`;
  const left = p.done < p.total && p.etaSeconds !== null ? ` — ${timeLeftText(p.etaSeconds)}` : '';
  return `Syncing ${name}: ${counts}${left}`;
}
