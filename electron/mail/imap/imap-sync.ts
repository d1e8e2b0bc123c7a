// One sync of an IMAP account (issue 5): every selectable mailbox, INBOX first, newest messages first, in
// batches that are each committed (with the search index) before the next is fetched, so the inbox is
// usable while a large first sync goes on and an interrupted sync resumes where it stopped.
//
// Per folder (decisions tested in test/imap-sync.test.ts and test/imap-qresync.test.ts against a real Dovecot):
// - With QRESYNC (RFC 7162), once a sync of the folder has completed: the folder is opened with the UIDVALIDITY
//   and HIGHESTMODSEQ that sync saw, and the server answers with what changed since: the uids expunged or
//   moved away (VANISHED), whose locations go, and the flags of changed messages, applied to the uids stored.
//   New mail is the uids from that sync's UIDNEXT on. Neither the UID list nor the flags of the whole folder
//   are asked for. The state is stored only when a folder's sync completes, so an interrupted sync is
//   followed by one from the last completed state, which is reported again (applying it twice is harmless).
// - Otherwise (no QRESYNC, a first or interrupted first sync, a new UIDVALIDITY, a folder synced before
//   UIDNEXT was stored): the server's UID list (UID SEARCH ALL) is compared with the stored locations: what is
//   gone was expunged or moved away, what is new is fetched. This is correct whatever happened in between.
// - A new UIDVALIDITY voids every stored uid of the folder: the locations are dropped and the messages are
//   matched again by Message-ID and size as they are listed, so their ids (which conversations point at)
//   stay the same and nothing is downloaded twice.
// - A new uid whose Message-ID and size match a message of the account is a move or a copy: it is linked,
//   not fetched. Messages left with no location at the end are deleted.
// - Flags without QRESYNC: with CONDSTORE and a stored HIGHESTMODSEQ, only what changed since (CHANGEDSINCE);
//   otherwise every flag of the folder (cheap: Dovecot gives thousands a second).
// - Only flags, size, BODYSTRUCTURE, the header fields Skimmer stores and the text parts are fetched
//   (imap-fetch.ts); not the ENVELOPE, which repeats those fields, and not the whole header block.
// - A folder with more new mail than the first batch has the rest downloaded by the fetcher thread on a
//   second connection (imap-fetcher.ts), so imapflow's decoding runs beside the reading and storing here.
import type { ExpungeEvent, FlagsEvent, ImapFlow, ListResponse, MailboxObject } from 'imapflow';
import type { Attachment } from '../../../shared/contract/index.ts';
import type { Db } from '../../db/open.ts';
import { storeGivingWay, type WriteTurn } from '../../db/write-turn.ts';
import type { AccountLogin } from '../accounts.ts';
import type { ParsedMessage, ParseOptions } from '../import/parse.ts';
import { prepareStore } from '../store/store.ts';
import { prepareWriteBack } from '../store/write-back.ts';
import { imapClient, MailFailure, mailFailure } from './imap-connect.ts';
import { type FetchedMessage, fetchBatch, storedFlags } from './imap-fetch.ts';
import { type Fetcher, startFetcher } from './imap-fetcher.ts';
import { prepareReplay } from './imap-replay.ts';
import { type FolderState, prepareImapStore } from './imap-store.ts';
import { folderProgress, type SyncProgress } from './sync-progress.ts';

export type { SyncProgress };

/**
 * The round's new mail, for a new-mail notification (shared/new-mail-notice.ts): unread messages downloaded into
 * INBOX once its first sync had completed (mail a first sync brings, also one resumed after a stop, is not new).
 */
type NewMail = {
  /** No folder of the account had completed a sync when this round began. */
  firstSync: boolean;
  count: number;
  /** The newest of them (at most 3), newest first: the sender's name (else address) and the subject. */
  latest: { from: string; subject: string }[];
};
export type SyncSummary = {
  folders: number;
  /** The account's messages on the server, each once however many folders (or Gmail labels) hold it. */
  messages: number;
  added: number;
  linked: number;
  removed: number;
  flagsChanged: number;
  /** Changes made here that were written to the server. */
  pushed: number;
  newMail: NewMail;
};

export type SyncOptions = {
  onProgress?: (p: SyncProgress) => void;
  /** Called after each committed batch, so a caller can refresh what the user sees. */
  onBatch?: (folder: string) => void;
  signal?: AbortSignal;
  parse?: (raw: Buffer, options?: ParseOptions) => Promise<ParsedMessage>;
  batchSize?: number;
  /** What the server said of each folder as the sync opened it (the IDLE wait compares INBOX with it). */
  onFolderSeen?: (path: string, seen: { uidNext: number; exists: number }) => void;
  /** Opens the client; tests pass short timeouts. */
  client?: (login: AccountLogin) => ImapFlow;
  /**
   * A logged-in connection to sync on instead of a new one, left open after a sync that went well so the
   * next one needs no new login (the background loop keeps it: imap-session.ts); closed when the sync fails
   * or is stopped, since a connection in an unknown state is not reused.
   */
  connection?: ImapFlow;
  /** Starts the fetcher thread (imap-fetcher.ts); tests pass one whose connection is refused. */
  fetcher?: typeof startFetcher;
  /** The main thread's right of way (db/write-turn.ts): a batch is cut where the main thread wants to write. */
  turn?: WriteTurn;
};

// Mailboxes that only repeat others are not synced as folders: a virtual All (Dovecot's would hold every
// message a second time) and Flagged. On Gmail (X-GM-EXT-1) All Mail is where archived mail lives, so it is
// synced, last (what INBOX and the labels brought is linked there, not downloaded again); Important
// repeats INBOX and labels as Starred does. imapflow names no special use for Important: its flag does.
const skippedUse = (gmail: boolean) => new Set(gmail ? ['\\Flagged', '\\Important'] : ['\\All', '\\Flagged']);
// INBOX first, All Mail last, the rest by path.
const rank = (b: ListResponse) => (b.path === 'INBOX' ? 0 : b.specialUse === '\\All' ? 2 : 1);
// Gmail's own mailboxes sit under "[Gmail]/" ("[Google Mail]/" in some countries); the user sees "Sent Mail".
const gmailPrefix = /^\[(Gmail|Google Mail)\]\//;
// The first batch of a folder: enough for a screenful of the newest mail (issue 5: newest 50 in 2 s).
const firstBatch = 50;
// Each commit writes a new segment of the search index, so after the first batch fewer, larger commits
// cost the sync thread less: 1,000 a commit took about 9 % less of its CPU than 200 (bench/README.md).
const laterBatches = 1000;
// The fetcher's first batch, which the sync thread waits for: a small one starts the reading sooner.
const secondBatch = 200;
const downloadsAhead = 2;
const modseq = (v: bigint | undefined): number | null =>
  v === undefined || v > BigInt(Number.MAX_SAFE_INTEGER) ? null : Number(v);

export async function syncAccount(db: Db, login: AccountLogin, opts: SyncOptions = {}): Promise<SyncSummary> {
  const where = `the mail server ${login.imap.host}`;
  const kept = opts.connection;
  const client = kept ?? (opts.client ?? imapClient)(login);
  // imapflow reports a dropped connection as an 'error' event too; the command in flight rejects with it.
  // (A kept connection has its listener from whoever opened it.)
  if (!kept) client.on('error', () => {});
  let synced = false;
  // Started by the first folder that needs it, then kept until the end of this sync.
  let fetcher: Promise<Fetcher | null> | null = null;
  const closeFetcher = () => void fetcher?.then((f) => f?.close());
  const abort = () => {
    client.close();
    closeFetcher();
  };
  opts.signal?.addEventListener('abort', abort, { once: true });
  try {
    if (!kept) await client.connect();
    const summary: SyncSummary = {
      folders: 0,
      messages: 0,
      added: 0,
      linked: 0,
      removed: 0,
      flagsChanged: 0,
      pushed: 0,
      newMail: { firstSync: false, count: 0, latest: [] },
    };
    // Local changes go to the server first, so what is read next already includes them.
    summary.pushed = await prepareReplay(db, login.id)(client, prepareWriteBack(db), login.user);
    const gmail = client.capabilities.has('X-GM-EXT-1');
    const skipped = skippedUse(gmail);
    // LIST-STATUS (RFC 5819): the LIST also gives each folder's counts, so a folder where nothing changed needs
    // no EXAMINE: one round trip for the whole account instead of one per folder (each IDLE wake pays them).
    const statusQuery = { messages: true, uidNext: true, uidValidity: true, highestModseq: true };
    const boxes = (await client.list(client.capabilities.has('LIST-STATUS') ? { statusQuery } : {}))
      .filter((b) => !b.flags.has('\\Noselect') && !b.flags.has('\\NonExistent'))
      .filter((b) => ![b.specialUse, ...b.flags].some((use) => use && skipped.has(use)))
      .sort((a, b) => rank(a) - rank(b) || a.path.localeCompare(b.path));
    const imapStore = prepareImapStore(db, login.id);
    // Every folder is made before any is synced, so that on Gmail an archive made during a long first sync
    // already finds All Mail (synced last) as the account's archive.
    const folders = boxes.map((box) => {
      const shown = gmail && box.specialUse ? box.path.replace(gmailPrefix, '') : box.path;
      const name = box.path === 'INBOX' ? 'Inbox' : shown.split(box.delimiter).join('/');
      return { box, name, folderId: imapStore.folder(box.path, name, box.specialUse ?? null) };
    });
    summary.newMail.firstSync = folders.every((f) => imapStore.state(f.folderId).uidValidity === null);
    // The newest new messages with their dates, so the summary's `latest` is the newest whatever the order.
    const arrived: { date: number; from: string; subject: string }[] = [];
    const store = prepareStore(db);
    // What was stored since the fetcher last heard, so it does not download a copy of it again.
    const learned: string[] = [];
    const remote = () => {
      if (!fetcher) {
        learned.length = 0;
        fetcher = (opts.fetcher ?? startFetcher)(login, imapStore.knownKeys());
        if (opts.signal?.aborted) closeFetcher();
      }
      return fetcher;
    };
    for (const { box, name, folderId } of folders) {
      if (opts.signal?.aborted) break;
      await syncFolder({
        client,
        db,
        imapStore,
        store,
        folderId,
        path: box.path,
        name,
        listed: box.status ?? null,
        opts,
        summary,
        login,
        remote,
        learned,
        arrived,
      });
      summary.folders += 1;
    }
    summary.newMail.latest = arrived
      .sort((a, b) => b.date - a.date)
      .slice(0, 3)
      .map(({ from, subject }) => ({ from, subject }));
    if (opts.signal?.aborted) throw new MailFailure('cancelled', 'The sync was stopped.', false);
    // A folder deleted (or renamed) on the server: what was only there goes, as an expunge would; a message
    // also filed elsewhere stays there. Only when the server's list looks whole (it names INBOX): a
    // half-answered LIST must never empty the local mailbox.
    const vanished = boxes.some((b) => b.path === 'INBOX')
      ? imapStore.foldersNotIn(new Set(boxes.map((b) => b.path)))
      : [];
    db.transaction(() => {
      for (const f of vanished) imapStore.forgetVanishedFolder(f);
    })();
    summary.removed += db.transaction(() => imapStore.dropOrphans())();
    summary.messages = imapStore.messageCount();
    db.transaction(() => {
      for (const f of vanished) imapStore.deleteFolder(f);
    })();
    if (!kept) await client.logout().catch(() => {});
    synced = true;
    return summary;
  } catch (e) {
    if (opts.signal?.aborted) throw new MailFailure('cancelled', 'The sync was stopped.', false);
    throw mailFailure(e, where);
  } finally {
    opts.signal?.removeEventListener('abort', abort);
    if (!kept || !synced) client.close();
    closeFetcher();
  }
}

type FolderJob = {
  client: ImapFlow;
  db: Db;
  imapStore: ReturnType<typeof prepareImapStore>;
  store: ReturnType<typeof prepareStore>;
  folderId: number;
  path: string;
  name: string;
  /** The folder's counts from the LIST, when the server gives them there (LIST-STATUS). */
  listed: FolderCounts | null;
  opts: SyncOptions;
  summary: SyncSummary;
  login: AccountLogin;
  remote: () => Promise<Fetcher | null>;
  learned: string[];
  /** The round's new mail so far (see NewMail), and whether this folder's downloads count as new mail. */
  arrived: { date: number; from: string; subject: string }[];
  arrivals?: boolean;
};

/** What a QRESYNC open reported (RFC 7162 §3.2.5.2): uids expunged since, and the flags of changed messages. */
type Changes = { vanished: number[]; flags: Map<number, string[]> };

/**
 * Opens a folder read-only; with QRESYNC when the server has it and the folder's last sync completed (it stored
 * UIDVALIDITY, HIGHESTMODSEQ and UIDNEXT). The server then sends, before it answers the EXAMINE, the uids
 * expunged since (VANISHED (EARLIER)) and the flags of what changed (FETCH); imapflow passes each on as an
 * 'expunge' or 'flags' event as it reads it, before mailboxOpen resolves. So they are collected by listeners
 * set for this open only and for this path only (a NOOP of the folder before may still report on it).
 * `changes` is null when the open was not a QRESYNC one, or the server did not honour it (a new UIDVALIDITY,
 * a folder without mod-sequences): then the folder is compared whole.
 */
async function openFolder(
  client: ImapFlow,
  path: string,
  before: FolderState,
): Promise<{ box: MailboxObject; changes: Changes | null }> {
  const { uidValidity, highestModseq, uidNext } = before;
  if (!client.enabled.has('QRESYNC') || uidValidity === null || highestModseq === null || uidNext === null) {
    return { box: await client.mailboxOpen(path, { readOnly: true }), changes: null };
  }
  const changes: Changes = { vanished: [], flags: new Map() };
  const onExpunge = (e: ExpungeEvent) => {
    if (e.path === path && e.vanished && e.uid !== undefined) changes.vanished.push(e.uid);
  };
  const onFlags = (e: FlagsEvent) => {
    if (e.path === path && e.uid !== undefined) changes.flags.set(e.uid, storedFlags(e.flags));
  };
  client.on('expunge', onExpunge);
  client.on('flags', onFlags);
  try {
    const box = await client.mailboxOpen(path, { readOnly: true, uidValidity, changedSince: highestModseq });
    // imapflow's own check of RFC 7162 §3.2.5: the same UIDVALIDITY, a HIGHESTMODSEQ, no NOMODSEQ.
    const honoured = (box as MailboxObject & { qresync?: boolean }).qresync === true;
    return { box, changes: honoured ? changes : null };
  } finally {
    client.off('expunge', onExpunge);
    client.off('flags', onFlags);
  }
}

/** A folder's counts as the server gives them: in a LIST-STATUS answer (each optional) or in the EXAMINE's. */
type FolderCounts = { messages?: number; uidNext?: number; uidValidity?: bigint; highestModseq?: bigint };

/**
 * The folder is as its last completed sync left it: the same UIDVALIDITY, HIGHESTMODSEQ (any new message, flag
 * change or, with QRESYNC, expunge raises it; RFC 7162 §3.1.2, §3.2.10) and UIDNEXT, and as many messages as are
 * stored (an expunge on a server without QRESYNC lowers that). Then neither its UID list nor its flags need
 * asking, which is what most IDLE wakes and 5-minute looks find in most folders; from the LIST's counts it is not
 * even opened.
 */
export function unchangedSince(before: FolderState, now: FolderCounts, stored: () => number): boolean {
  return (
    before.uidValidity !== null &&
    before.highestModseq !== null &&
    before.uidNext !== null &&
    now.uidValidity !== undefined &&
    Number(now.uidValidity) === before.uidValidity &&
    now.highestModseq !== undefined &&
    modseq(now.highestModseq) === before.highestModseq &&
    now.uidNext === before.uidNext &&
    now.messages === stored()
  );
}

async function syncFolder(job: FolderJob): Promise<void> {
  const { client, db, imapStore, folderId, path, opts, summary } = job;
  const before = imapStore.state(folderId);
  const stored = () => imapStore.locationCount(folderId);
  // Still a round that looked at the folder: "Sync now" follows a background round by its progress.
  const unchanged = (seen: { uidNext: number; exists: number }) => {
    opts.onFolderSeen?.(path, seen);
    opts.onProgress?.(folderProgress(job.name, 0)(0));
    db.transaction(() => imapStore.setState(folderId, before))();
  };
  const { listed } = job;
  if (listed && unchangedSince(before, listed, stored)) {
    return unchanged({ uidNext: listed.uidNext as number, exists: listed.messages as number });
  }
  const { box, changes } = await openFolder(client, path, before);
  // Without LIST-STATUS (Gmail), the same look at the EXAMINE's counts (with QRESYNC that open already brought
  // nothing more than this: bench/imap-resync.ts).
  if (!changes && unchangedSince(before, { ...box, messages: box.exists }, stored)) {
    return unchanged({ uidNext: box.uidNext, exists: box.exists });
  }
  opts.onFolderSeen?.(path, { uidNext: box.uidNext, exists: box.exists });
  const uidValidity = Number(box.uidValidity);
  const highestModseq = modseq(box.highestModseq);
  // Stored only when the folder's sync completes, with what this open saw: whatever changes after it is
  // reported again by the next QRESYNC open, and an interrupted sync leaves the last completed one's state.
  const state = { uidValidity, highestModseq, uidNext: typeof box.uidNext === 'number' ? box.uidNext : null };
  const reset = before.uidValidity !== null && before.uidValidity !== uidValidity;
  if (reset) db.transaction(() => imapStore.forgetFolder(folderId))();
  // New mail is what reaches INBOX after its first sync completed: not a first sync, a resumed one, or a reset.
  job.arrivals = path === 'INBOX' && before.uidValidity !== null && !reset;

  // New uids to fetch, newest first, and how many messages the folder holds.
  let fresh: number[];
  if (changes) {
    // QRESYNC: the open reported what changed since the last completed sync. Only the stored uids matter,
    // each looked up alone: the folder's whole location list is not read.
    db.transaction(() => {
      for (const uid of changes.vanished) imapStore.removeLocation(folderId, uid);
      for (const [uid, flags] of changes.flags) {
        const at = imapStore.location(folderId, uid);
        if (!at || sameFlags(at.flags, flags)) continue;
        imapStore.setFlags(folderId, uid, at.message, flags);
        summary.flagsChanged += 1;
      }
    })();
    // New mail has the uids from the stored UIDNEXT on. `n:*` also matches the highest uid when that is
    // below n (RFC 3501 §6.4.8: "559:*" always includes the last message's uid), so it is filtered; a uid
    // stored by an interrupted sync is not fetched again. No new UIDNEXT: nothing to ask.
    const since = before.uidNext as number;
    const grew = box.exists > 0 && (typeof box.uidNext !== 'number' || box.uidNext > since);
    const listed = grew ? (await client.search({ uid: `${since}:*` }, { uid: true })) || [] : [];
    fresh = listed.filter((uid) => uid >= since && !imapStore.location(folderId, uid)).sort((a, b) => b - a);
  } else {
    const local = imapStore.locations(folderId);
    const serverUids = box.exists === 0 ? [] : (await client.search({ all: true }, { uid: true })) || [];
    const onServer = new Set(serverUids);

    // Expunged or moved away.
    const gone = [...local.keys()].filter((uid) => !onServer.has(uid));
    if (gone.length > 0) {
      db.transaction(() => {
        for (const uid of gone) imapStore.removeLocation(folderId, uid);
      })();
    }

    // Flags of what both sides have.
    if (local.size > gone.length) {
      const condstore = client.enabled.has('CONDSTORE') || client.capabilities.has('CONDSTORE');
      const since = !reset && condstore ? before.highestModseq : null;
      const changed = await client.fetchAll(
        '1:*',
        { uid: true, flags: true },
        { uid: true, ...(since !== null ? { changedSince: BigInt(since) } : {}) },
      );
      db.transaction(() => {
        for (const m of changed) {
          const at = local.get(m.uid);
          const flags = storedFlags(m.flags);
          if (!at || sameFlags(at.flags, flags)) continue;
          imapStore.setFlags(folderId, m.uid, at.message, flags);
          summary.flagsChanged += 1;
        }
      })();
    }
    fresh = serverUids.filter((uid) => !local.has(uid)).sort((a, b) => b - a);
  }

  // New messages, newest first. A small first batch makes the newest mail visible at once; after it, the
  // next batch downloads (and is read) while the current one is stored.
  const batchSize = opts.batchSize ?? laterBatches;
  const batches: number[][] = [];
  for (let i = 0; i < fresh.length; i += batches.at(-1)?.length ?? 0) {
    const size = batches.length === 0 ? firstBatch : batches.length === 1 ? secondBatch : batchSize;
    batches.push(fresh.slice(i, i + Math.min(size, batchSize)));
  }
  let done = 0;
  const progress = folderProgress(job.name, fresh.length);
  opts.onProgress?.(progress(done));
  // The first batch on this connection, at once; the rest from the fetcher thread, started meanwhile, or here
  // too when the server refused it a connection.
  const remote = batches.length > 1 ? job.remote() : null;
  const here = (uids: number[]) =>
    fetchBatch(client, uids, (mid, size) => imapStore.match(mid, size) !== null);
  const downloadBatch = (uids: number[], i: number) =>
    i === 0 || !remote
      ? here(uids)
      : remote.then((f) => (f ? f.fetch(path, uidValidity, uids, job.learned.splice(0)) : here(uids)));
  // Two batches are asked for ahead of the one being stored, so the server always has a command to answer
  // while this side reads and stores (imapflow sends them one after another on the connection).
  const ahead: Promise<Downloaded>[] = [];
  let asked = 0;
  const askAhead = (depth: number) => {
    while (asked < batches.length && ahead.length < depth) {
      const i = asked++;
      const next = downloadBatch(batches[i] as number[], i).then((fetched) => download(job, fetched));
      // A download that fails while a batch is stored is reported when it is awaited, not as unhandled.
      next.catch(() => {});
      ahead.push(next);
    }
  };
  // The first batch alone, so nothing queues before the newest mail.
  askAhead(1);
  for (let current = ahead.shift(); current; current = ahead.shift()) {
    const batch = await current;
    if (opts.signal?.aborted) return;
    askAhead(downloadsAhead);
    await commit(job, batch);
    // This connection idles while the fetcher downloads; a NOOP keeps it from timing out on a long folder.
    if (remote) void client.noop().catch(() => {});
    done += batch.count;
    opts.onProgress?.(progress(done));
    opts.onBatch?.(job.name);
  }
  db.transaction(() => imapStore.setState(folderId, state))();
}

const sameFlags = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && [...a].sort().every((f, i) => f === b[i]);

type Pending = FetchedMessage & { attachments: Attachment[]; raw: Buffer };
type Parsed = { p: Pending; m: ParsedMessage | null; error: string | null };
type Downloaded = {
  count: number;
  links: { uid: number; message: number; flags: string[] }[];
  /**
   * Started as the batch arrives: the usual rebuilt message is read at once (parse-direct.ts), any other
   * goes to a parse thread, which works while the sync stores the batch before.
   */
  parsed: Promise<Parsed[]>;
};

const isPending = (m: FetchedMessage): m is Pending => m.attachments !== null && m.raw !== null;

/** One batch from the server: what is already stored elsewhere (a move or copy), and the rest rebuilt. */
async function download(job: FolderJob, fetched: FetchedMessage[]): Promise<Downloaded> {
  const { client, imapStore } = job;
  const links: Downloaded['links'] = [];
  const pending: Pending[] = [];
  const unfetched: number[] = [];
  for (const m of fetched) {
    const existing = imapStore.match(m.messageId, m.size);
    if (existing !== null) links.push({ uid: m.uid, message: existing, flags: m.flags });
    else if (isPending(m)) pending.push(m);
    else if (m.attachments) unfetched.push(m.uid);
  }
  // The fetcher knew a message this thread does not (it never should): its text is fetched here.
  if (unfetched.length > 0)
    pending.push(...(await fetchBatch(client, unfetched, () => false)).filter(isPending));
  // The parser (mailparser and its charsets, a megabyte of code) is loaded by the first sync that stores mail,
  // not by every start of the command line (issue 18).
  const parse = job.opts.parse ?? (await import('../import/parse.ts')).parseMessage;
  const parsed = Promise.all(
    pending.map(async (p): Promise<Parsed> => {
      try {
        const m = await parse(p.raw, { rebuilt: true });
        return { p, m: { ...m, attachments: p.attachments, size: p.size }, error: null };
      } catch (e) {
        return { p, m: null, error: e instanceof Error ? e.message : String(e) };
      }
    }),
  );
  return { count: fetched.length, links, parsed };
}

/**
 * Stores a downloaded batch with the search index: in one transaction, or in more where the main thread wants to
 * write meanwhile (db/write-turn.ts). Each message's row, its location and its index entry commit together; the
 * folder's state moves on only after the whole batch (`syncFolder`), so a stop in between fetches nothing twice
 * that was stored and loses nothing that was not.
 */
async function commit(job: FolderJob, batch: Downloaded): Promise<void> {
  const { db, imapStore, store, folderId, summary } = job;
  const parsed = await batch.parsed;
  const source = `imap:${job.login.id}:${job.path}`;
  db.transaction(() => {
    for (const l of batch.links) imapStore.link(folderId, l.uid, l.message, l.flags);
  })();
  summary.linked += batch.links.length;
  storeGivingWay(
    db,
    job.opts.turn,
    parsed,
    ({ p, m, error }) => {
      if (!m) {
        store.recordFailure(`${source}#${p.uid}`, error ?? 'unreadable', Date.now());
        return;
      }
      const stored = store.storeInFolder(folderId, source, m);
      if (stored.status === 'imported') {
        if (job.arrivals && !p.flags.includes('\\Seen')) {
          summary.newMail.count += 1;
          job.arrived.push({ date: m.date, from: m.from.name || m.from.address, subject: m.subject });
          if (job.arrived.length > 16) job.arrived.sort((a, b) => b.date - a.date).splice(3);
        }
        imapStore.linkNew(folderId, p.uid, stored.id, p.flags);
        imapStore.remember(m.messageId, m.size, stored.id);
        if (m.messageId) job.learned.push(`${m.size} ${m.messageId}`);
      } else imapStore.link(folderId, p.uid, stored.id, p.flags);
      if (stored.status === 'imported') summary.added += 1;
      else summary.linked += 1;
    },
    () => store.indexStored(),
  );
}
