// `skimmer import PATH…`: .eml files, .mbox files and Maildir folders, through the import job the `mail:import`
// channel starts, with that channel's request schema checked first. The paths are the shell's (below), so they are
// not held to the renderer's places. Progress goes to a terminal's stderr; Ctrl+C stops the job and keeps what was read
// so far (exit 130). Nothing imported with something failed is a failed command (exit 1), said in one sentence on
// stderr after the summary; anything imported or found already there is a success, failures listed beside it.
import { join } from 'node:path';
import { channels, type ImportSummary } from '../../shared/contract/index.ts';
import { describeIssues } from '../bridge/dispatch-on.ts';
import { dbFileName } from '../data-folder.ts';
import { shellPlaces } from '../files/safe-open.ts';
import { type ImportJob, startImportJob } from '../mail/import/import-job.ts';
import type { Command } from './command.ts';
import { UsageError } from './failures.ts';

export const importCommand: Command = async (app, args, values, io, signal) => {
  if (args.length === 0) throw new UsageError('Name at least one file or folder to import.');
  const request = channels['mail:import'].request.safeParse({ paths: args });
  if (!request.success) throw new UsageError(describeIssues(request.error.issues));
  // SECURITY: the person at the shell typed these paths and could read them with their own permissions anyway, so
  // they may be anywhere (`/var/mail/$USER`, a checkout in /srv) but under /proc, /sys or /dev and in the data folder
  // (files/safe-open.ts shellPlaces; every other part of the file rule holds). The renderer's `mail:import`, which
  // hostile content may drive, keeps the user's places (app.ts importFiles).
  const places = shellPlaces({ dataDir: app.dataDir });
  let lastShown = 0;
  const showProgress = !values.json && process.stderr.isTTY;
  app.log.info('import_started', { sources: args.length });
  let job: ImportJob | undefined;
  const code = await new Promise<number>((resolve) => {
    job = startImportJob(join(app.dataDir, dbFileName), args, places, (e) => {
      if (e.type === 'import_progress' && showProgress && Date.now() - lastShown > 500) {
        lastShown = Date.now();
        const eta = e.etaSeconds === null ? '' : `, about ${e.etaSeconds} s left`;
        process.stderr.write(`\r${e.messages} messages, ${e.perSecond}/s${eta}   `);
      } else if (e.type === 'import_done') {
        if (showProgress) process.stderr.write('\n');
        const s = e.summary;
        app.log.info('import_done', {
          imported: s.imported,
          duplicates: s.duplicates,
          failed: s.failed.length,
          cancelled: e.cancelled,
        });
        if (values.json) io.out(JSON.stringify(s));
        else {
          io.out(
            `Imported ${s.imported} messages, ${s.duplicates} already there, ${s.failed.length} failed.`,
          );
          for (const f of s.failed) io.out(`  failed: ${f.source}: ${f.reason}`);
          if (e.cancelled) io.out('The import was stopped; what was read so far is kept.');
        }
        const failure = e.cancelled ? null : nothingImported(s);
        if (failure) io.err(failure);
        resolve(e.cancelled ? 130 : failure ? 1 : 0);
      } else if (e.type === 'error') {
        io.err(e.error.message);
        resolve(1);
      }
    });
    const started = job;
    signal?.addEventListener('abort', () => started.cancel(), { once: true });
  });
  // The worker has closed its connection before the app closes its own.
  await job?.done;
  return code;
};

// Not one message read, and something failed: the sentence names the one failure, or says they are all listed.
// Duplicates are messages read: re-importing a folder with one bad file in it is no failed command.
function nothingImported(s: ImportSummary): string | null {
  if (s.imported > 0 || s.duplicates > 0) return null;
  const [only, ...more] = s.failed;
  if (!only) return null;
  return more.length === 0
    ? `Nothing was imported: ${only.source}: ${only.reason}`
    : 'Nothing was imported: none of it could be read, and each failure is listed.';
}
