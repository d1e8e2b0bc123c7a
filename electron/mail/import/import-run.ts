// One import, start to finish, on one database connection. It runs inside the import worker (see
// import-worker.ts) so the main thread never parses mail. A bad message is recorded with its reason and
// the import goes on; a cancel stops between batches and keeps what was already stored.
import type { ImportSummary } from '../../../shared/contract/index.ts';
import type { Db } from '../../db/open.ts';
import { storeGivingWay, type WriteTurn } from '../../db/write-turn.ts';
import { FileRefusal, type Places, userPlaces } from '../../files/safe-open.ts';
import { prepareStore } from '../store/store.ts';
import type { ParsedMessage } from './parse.ts';
import { ParseError } from './parse-bounds.ts';
import { type FolderRef, planImport, type RawMessage, readUnit } from './sources.ts';

// Skimmer's own Trash for mail on this computer: where its Trash action takes imported mail (undo.ts), a place by
// its source (folder-places.ts), so mail deleted in the mailbox it came from is in the Trash view and `in:trash`,
// and out of the Inbox, All mail and search, as if it had been trashed here.
const localTrash: FolderRef = { name: 'Trash', source: 'skimmer:trash' };

export type ImportCounters = {
  messages: number;
  imported: number;
  duplicates: number;
  failed: number;
  bytesDone: number;
  bytesTotal: number;
};

export type ImportHooks = {
  onProgress: (c: ImportCounters) => void;
  isCancelled: () => boolean;
  now?: () => number;
  // Defaults to parsing on this thread; the import worker passes its parse pool, which may take the bytes over
  // (the buffer is empty after the call): nothing here reads them again.
  parse?: (raw: Buffer) => Promise<ParsedMessage>;
  // Where a named file may be (files/safe-open.ts); the app passes its own, which leave out its data folder.
  places?: Places;
  // The main thread's right of way (db/write-turn.ts): a batch is cut where the main thread wants to write.
  turn?: WriteTurn;
};

// A transaction per 500 messages: the search index writes fewer, larger segments than at 200 (1,000 took a fifth
// less of the storing thread's time than 200), and the parse thread, which runs ahead by up to maxInFlight
// messages, still has work for all of a commit. At 1,000 it ran out of work during every commit and both threads
// waited for each other a quarter of the import (issue 18, bench/README.md).
const batchMessages = 500;
const batchBytes = 16 * 1024 * 1024;
const maxListedFailures = 1000;
// Messages being parsed at once; results are still stored in reading order. More than a batch, so the parse
// threads have work while this thread commits one; bounded in bytes too, for mail with big attachments.
const maxInFlight = 512;
const maxInFlightBytes = 16 * 1024 * 1024;

export async function runImport(
  db: Db,
  paths: readonly string[],
  hooks: ImportHooks,
): Promise<{ summary: ImportSummary; cancelled: boolean }> {
  const now = hooks.now ?? Date.now;
  const store = prepareStore(db);
  // A message is stored unread (store.ts has no read state to take); one its mailbox had read is marked so in the
  // same transaction, found by the pair that makes it unique (Message-ID and content hash).
  const markRead = db.prepare<[string, string]>(
    'UPDATE messages SET unread = 0 WHERE message_id = ? AND content_hash = ?',
  );
  const places = hooks.places ?? userPlaces();
  const plan = await planImport(paths, places);
  const c: ImportCounters = {
    messages: 0,
    imported: 0,
    duplicates: 0,
    failed: 0,
    bytesDone: 0,
    bytesTotal: plan.bytesTotal,
  };
  const failed: ImportSummary['failed'] = [];
  const fail = (source: string, reason: string) => {
    c.failed++;
    if (failed.length < maxListedFailures) failed.push({ source, reason });
    store.recordFailure(source, reason, now());
  };
  for (const p of plan.problems) fail(p.source, p.reason);

  type Parsed = { raw: RawMessage; parsed: ParsedMessage };
  // Loaded once, and only when it parses here: the import worker never does (parse-bounds.ts).
  let parser: Promise<typeof import('./parse.ts')> | undefined;
  const parseHere = async (raw: Buffer) => {
    parser ??= import('./parse.ts');
    return (await parser).parseMessage(raw);
  };
  const parse = hooks.parse ?? parseHere;
  let batch: Parsed[] = [];
  let batchSize = 0;
  const flush = (items: Parsed[]) =>
    storeGivingWay(
      db,
      hooks.turn,
      items,
      ({ raw, parsed }) => {
        // A Maildir file's name decides; otherwise the message's own headers (mail-flags.ts).
        const flags = raw.flags ?? parsed.statusFlags;
        const folder = flags?.trashed ? localTrash : raw.folder;
        // A duplicate is left as it is: what the user did with it since the first import stands.
        if (store.store(folder, raw.source, parsed, flags?.flagged) === 'duplicate') {
          c.duplicates++;
          return;
        }
        c.imported++;
        if (flags?.seen) markRead.run(parsed.messageId, parsed.contentHash);
      },
      () => store.indexStored(),
    );
  const commit = () => {
    if (batch.length > 0) flush(batch);
    batch = [];
    batchSize = 0;
    hooks.onProgress({ ...c });
  };

  // Parsing runs ahead (up to maxInFlight messages); storing takes the results in reading order.
  const inFlight: { raw: RawMessage; bytes: number; result: Promise<ParsedMessage | Error> }[] = [];
  let inFlightBytes = 0;
  const storeOldest = async () => {
    const next = inFlight.shift();
    if (!next) return;
    inFlightBytes -= next.bytes;
    const result = await next.result;
    if (result instanceof Error) {
      fail(next.raw.source, reasonOf(result));
    } else {
      batch.push({ raw: next.raw, parsed: result });
      batchSize += next.bytes;
    }
    if (batch.length >= batchMessages || batchSize >= batchBytes) commit();
  };

  let cancelled = false;
  outer: for (const unit of plan.units) {
    try {
      for await (const raw of readUnit(unit, places)) {
        if (hooks.isCancelled()) {
          cancelled = true;
          break outer;
        }
        const bytes = raw.raw.length;
        c.messages++;
        c.bytesDone += bytes;
        inFlight.push({ raw, bytes, result: parse(raw.raw).catch((e: unknown) => asError(e)) });
        inFlightBytes += bytes;
        while (inFlight.length >= maxInFlight || inFlightBytes >= maxInFlightBytes) await storeOldest();
      }
    } catch (e) {
      // The unit itself could not be read (unreadable file, not an mbox): the rest of the import goes on.
      fail(unit.path, reasonOf(e));
    }
  }
  // Messages already read are stored even after a cancel: nothing read is lost.
  while (inFlight.length > 0) await storeOldest();
  commit();
  if (!cancelled) c.bytesDone = c.bytesTotal;
  hooks.onProgress({ ...c });
  return { summary: { imported: c.imported, duplicates: c.duplicates, failed }, cancelled };
}

function asError(e: unknown): Error {
  return e instanceof Error ? e : new Error(String(e));
}

function reasonOf(e: unknown): string {
  if (e instanceof ParseError || e instanceof FileRefusal) return e.message;
  const code = (e as { code?: unknown })?.code;
  if (code === 'EACCES' || code === 'EPERM') return 'Skimmer may not read this file.';
  if (code === 'ENOENT') return 'The file disappeared during the import.';
  if (code === 'EISDIR') return 'This is a folder, not a message file.';
  const message = e instanceof Error ? e.message : String(e);
  // Parser messages are short technical sentences about the input, never secrets; keep them bounded.
  return `Could not parse this message: ${message.slice(0, 200)}`;
}
