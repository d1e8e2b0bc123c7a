// `skimmer account sync NAME --once`'s progress, as `skimmer import` gives its own: a line on stderr per folder
// as it goes ("Syncing Inbox: 1,200 of 20,000 — about 2 min left"; at most one a second per folder, and its last
// one), or with --json every progress event as a line on stdout (`{"type":"sync_progress",…}`) before the
// summary line. Folders with nothing to download say nothing. The folder names come from the mail server: the
// sentence takes their controls out (shared/sync-progress-text.ts), so a name cannot drive the terminal.
import type { SyncProgress } from '../../shared/contract/index.ts';
import { syncProgressText } from '../../shared/sync-progress-text.ts';
import type { Out } from './command.ts';

const everyMs = 1000;

export function syncProgressPrinter(
  json: boolean,
  io: Out,
  now: () => number = Date.now,
): (p: SyncProgress) => void {
  const shown = new Map<string, number>();
  return (p) => {
    if (json) return io.out(JSON.stringify({ type: 'sync_progress', ...p }));
    if (p.total === 0) return;
    const last = shown.get(p.folder);
    if (p.done < p.total && last !== undefined && now() - last < everyMs) return;
    shown.set(p.folder, now());
    io.err(syncProgressText(p, 'en-US'));
  };
}
