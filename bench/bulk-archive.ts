// A bulk archive of 1,000 conversations and its Undo through the bridge (issue 16, DESIGN §11 "Several at
// once"), on a copy of the database bench/import.ts leaves behind (generated mail, imported for real): the
// newest `--threads` conversations of the Inbox view are sent as thread ids in one `mail:bulk` request, then
// the one Undo entry it made is undone with `mail:undo {id}`, each round from the restored mailbox; then the
// same conversations marked read and back, and "every conversation of the Inbox", which past 10,000 is refused.
//
//   node bench/bulk-archive.ts [--count 20000] [--threads 1000] [--rounds 5] [--largest]
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createApp } from '../electron/app.ts';
import { dispatch } from '../electron/bridge/dispatch.ts';
import { dbFileName } from '../electron/data-folder.ts';
import type { Channel, Request, Response } from '../shared/contract/index.ts';
import { ensureDatabase } from './corpus.ts';
import { round, summary } from './stats.ts';

const { values } = parseArgs({
  options: {
    count: { type: 'string', default: '20000' },
    threads: { type: 'string', default: '1000' },
    rounds: { type: 'string', default: '5' },
    largest: { type: 'boolean', default: false },
  },
});
const wanted = Number(values.threads);
const source = ensureDatabase(Number(values.count));
const dataDir = mkdtempSync(join(tmpdir(), 'skimmer-bench-bulk-'));
copyFileSync(source, join(dataDir, dbFileName));
const app = createApp({ dataDir, mode: 'browser' });

async function call<C extends Channel>(channel: C, request: Request<C>): Promise<Response<C>> {
  const reply = await dispatch(app.handlers, channel, request, true);
  if (!reply.ok) throw new Error(`${channel}: ${reply.error.message}`);
  return reply.value as Response<C>;
}

async function timed<T>(run: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const t = performance.now();
  const value = await run();
  return { ms: performance.now() - t, value };
}

// The newest conversations of the Inbox, as the list would page them in; with --largest, the Inbox's
// conversations with the most messages (a batch of several thousand messages).
const threads: number[] = values.largest
  ? (app.db
      .prepare('SELECT id FROM threads WHERE message_count > 0 ORDER BY message_count DESC, id LIMIT ?')
      .pluck()
      .all(wanted) as number[])
  : [];
for (let offset = 0; threads.length < wanted; offset += 500) {
  const page = await call('mail:threads', { folderId: null, view: 'inbox', offset, limit: 500 });
  if (page.threads.length === 0) break;
  threads.push(...page.threads.map((t) => t.id));
}
threads.length = Math.min(threads.length, wanted);
const inThreads = app.db
  .prepare('SELECT count(*) FROM messages WHERE thread_id IN (SELECT value FROM json_each(?))')
  .pluck()
  .get(JSON.stringify(threads)) as number;

const archive: number[] = [];
const undo: number[] = [];
let moved = 0;
for (let r = 0; r < Number(values.rounds); r++) {
  const done = await timed(() =>
    call('mail:bulk', { selection: { scope: { view: 'inbox' }, threads }, action: { kind: 'archive' } }),
  );
  archive.push(done.ms);
  moved = done.value.changed;
  const [entry] = await call('mail:undoable', { limit: 1 });
  const back = await timed(() => call('mail:undo', { id: entry?.id ?? 0 }));
  undo.push(back.ms);
}

// The same conversations marked read and back, a flag rather than a move.
const read = await timed(() =>
  call('mail:bulk', {
    selection: { scope: { view: 'inbox' }, threads },
    action: { kind: 'read', read: true },
  }),
);
const [readEntry] = await call('mail:undoable', { limit: 1 });
const readUndo = await timed(() => call('mail:undo', { id: readEntry?.id ?? 0 }));

// "Select all N in this view" on the whole Inbox: refused past the bound, before anything changes.
const inbox = await call('mail:threads', { folderId: null, view: 'inbox', offset: 0, limit: 1 });
const whole = await timed(() =>
  dispatch(
    app.handlers,
    'mail:bulk',
    { selection: { scope: { view: 'inbox' } }, action: { kind: 'archive' } },
    true,
  ),
);

const ms = (values: number[]) => {
  const s = summary(values);
  return { median: round(s.median), p90: round(s.p90), max: round(s.max) };
};
console.log(
  JSON.stringify(
    {
      database: source,
      threads: threads.length,
      messagesInThreads: inThreads,
      messagesMoved: moved,
      archiveMs: ms(archive),
      undoMs: ms(undo),
      markRead: { messagesChanged: read.value.changed, ms: round(read.ms), undoMs: round(readUndo.ms) },
      wholeInbox: {
        threads: inbox.total,
        refused: !whole.value.ok,
        ms: round(whole.ms),
      },
    },
    null,
    2,
  ),
);
await app.close();
rmSync(dataDir, { recursive: true, force: true });
