// `skimmer import PATH…`: .eml files, .mbox files and Maildir folders, through the import job the `mail:import`
// channel starts (app.importFiles), with its request schema checked first. Progress goes to a terminal's
// stderr; Ctrl+C stops the job and keeps what was read so far (exit 130).
import { channels } from '../../shared/contract/index.ts';
import { describeIssues } from '../bridge/dispatch-on.ts';
import type { Command } from './command.ts';
import { UsageError } from './failures.ts';

export const importCommand: Command = async (app, args, values, io, signal) => {
  if (args.length === 0) throw new UsageError('Name at least one file or folder to import.');
  const request = channels['mail:import'].request.safeParse({ paths: args });
  if (!request.success) throw new UsageError(describeIssues(request.error.issues));
  let lastShown = 0;
  const showProgress = !values.json && process.stderr.isTTY;
  const result = await new Promise<{ code: number }>((resolve) => {
    const job = app.importFiles(args, (e) => {
      if (e.type === 'import_progress' && showProgress && Date.now() - lastShown > 500) {
        lastShown = Date.now();
        const eta = e.etaSeconds === null ? '' : `, about ${e.etaSeconds} s left`;
        process.stderr.write(`\r${e.messages} messages, ${e.perSecond}/s${eta}   `);
      } else if (e.type === 'import_done') {
        if (showProgress) process.stderr.write('\n');
        const s = e.summary;
        if (values.json) io.out(JSON.stringify(s));
        else {
          io.out(
            `Imported ${s.imported} messages, ${s.duplicates} already there, ${s.failed.length} failed.`,
          );
          for (const f of s.failed) io.out(`  failed: ${f.source}: ${f.reason}`);
          if (e.cancelled) io.out('The import was stopped; what was read so far is kept.');
        }
        resolve({ code: e.cancelled ? 130 : 0 });
      } else if (e.type === 'error') {
        io.err(e.error.message);
        resolve({ code: 1 });
      }
    });
    signal?.addEventListener('abort', () => job.cancel(), { once: true });
  });
  return result.code;
};
