// The composition root (DESIGN §1): builds every service from a data folder. Electron's main.ts, the
// browser mode and the CLI all use it, so the three never drift apart.
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { StreamEvent } from '../shared/contract.ts';
import { prepareConversations } from './ai/chat/conversations.ts';
import { prepareGrants } from './ai/safety/grants.ts';
import { prepareServices } from './ai/services.ts';
import { listModels, testConnection } from './ai/transport/list-models.ts';
import { prepareTriageJobs } from './ai/triage/triage-jobs.ts';
import type { Handlers } from './bridge/dispatch.ts';
import { BridgeFailure } from './bridge/errors.ts';
import { accountHandlers } from './bridge/handlers/accounts.ts';
import { consentHandlers } from './bridge/handlers/approvals.ts';
import { chatHandlers } from './bridge/handlers/chat.ts';
import { undoHandler } from './bridge/handlers/mail.ts';
import { summaryHandlers } from './bridge/handlers/summary.ts';
import { triageHandlers } from './bridge/handlers/triage.ts';
import { createStreamHub } from './bridge/streams.ts';
import { type Db, openDatabase } from './db/open.ts';
import { DocumentError } from './documents/document-error.ts';
import { prepareDocuments } from './documents/documents.ts';
import { readDocument } from './documents/read.ts';
import { checkExternalUrl } from './external-url.ts';
import { type Places, userPlaces } from './files/safe-open.ts';
import { fileLog, type Log } from './log.ts';
import { prepareAccounts } from './mail/accounts.ts';
import { prepareAccountSync } from './mail/imap/account-sync.ts';
import { prepareWriteBack } from './mail/imap/write-back.ts';
import { type ImportJob, startImportJob } from './mail/import/import-job.ts';
import { MailError } from './mail/mail-error.ts';
import { prepareDrafts } from './mail/send/drafts.ts';
import { prepareOutbox } from './mail/send/outbox.ts';
import { prepareQueries } from './mail/store/queries.ts';
import { prepareSearch } from './mail/store/search.ts';
import { prepareMailActions } from './mail/store/undo.ts';
import { fileSealer } from './secrets/file-vault.ts';
import { createKeyVault, type KeyVault, type Sealer } from './secrets/key-vault.ts';

export const projectRoot = fileURLToPath(new URL('..', import.meta.url));
export const demoMailbox = join(projectRoot, 'fixtures', 'demo');
export const dbFileName = 'skimmer.db';
export const logFileName = 'skimmer.log';

export type AppOptions = {
  dataDir: string;
  mode: 'desktop' | 'browser';
  sealer?: Sealer;
  // Opens a URL the user confirmed, in the system browser. Browser mode has none: the page opens it.
  openExternal?: (url: string) => Promise<void>;
  // The long-running app (desktop, `skimmer serve`): sends what is due in the outbox and keeps accounts in
  // sync in the background. One-shot CLI commands do neither.
  background?: boolean;
};

export type App = {
  dataDir: string;
  services: ReturnType<typeof prepareServices>;
  conversations: ReturnType<typeof prepareConversations>;
  grants: ReturnType<typeof prepareGrants>;
  accounts: ReturnType<typeof prepareAccounts>;
  db: Db;
  // Where a file the user names may be (files/safe-open.ts): never inside this data folder.
  places: Places;
  vault: KeyVault;
  log: Log;
  handlers: Handlers;
  streams: ReturnType<typeof createStreamHub>;
  importFiles(paths: readonly string[], onEvent: (e: StreamEvent) => void): ImportJob;
  close(): Promise<void>;
};

export function createApp(options: AppOptions): App {
  mkdirSync(options.dataDir, { recursive: true, mode: 0o700 });
  const dbFile = join(options.dataDir, dbFileName);
  const db = openDatabase(dbFile);
  const log = fileLog(join(options.dataDir, logFileName));
  const vault = createKeyVault(db, options.sealer ?? fileSealer(options.dataDir));
  const queries = prepareQueries(db);
  const search = prepareSearch(db);
  const services = prepareServices(db, vault);
  const conversations = prepareConversations(db);
  const grants = prepareGrants(db);
  const mailActions = prepareMailActions(db);
  const writeBack = prepareWriteBack(db);
  const accounts = prepareAccounts(db, vault);
  const outbox = prepareOutbox(db);
  const drafts = prepareDrafts(db);
  // SECURITY: every path the bridge or the CLI names is opened under this rule (DESIGN §13): the user's own
  // places, links resolved, never the data folder with the database and the vault key.
  const places = userPlaces({ dataDir: options.dataDir });
  const demoPlaces = userPlaces({ dataDir: options.dataDir, extraRoots: [demoMailbox] });
  const documents = prepareDocuments(db, places);
  if (options.background) outbox.recoverAfterRestart();
  // SECURITY: only the app itself sends (a CLI command exits before the undo window ends): what is due goes
  // out once a second, each message claimed once (mail/send/outbox.ts).
  const sender = options.background
    ? setInterval(() => {
        outbox.sendDue(accounts).catch((e: unknown) => log.error('outbox', e));
      }, 1000)
    : null;
  sender?.unref();
  const triageJobs = prepareTriageJobs({ db, services });
  // A triage job the app was running when it stopped carries on where it stopped.
  if (options.background) {
    for (const id of triageJobs.unfinished()) {
      triageJobs.run(id).catch((e: unknown) => log.error('triage_resume', e));
    }
  }
  // The long-running app keeps every account in sync in the background; a CLI command syncs on request.
  const accountSync = options.background ? prepareAccountSync({ dbFile, accounts, log }) : null;
  void accountSync?.startAll();
  // A run cut off by a restart is closed (DESIGN §3), so every stored conversation stays pairable.
  conversations.closeInterruptedRuns();
  const streams = createStreamHub();
  const jobs = new Set<ImportJob>();
  const version = (JSON.parse(readFileSync(join(projectRoot, 'package.json'), 'utf8')) as { version: string })
    .version;

  function importFiles(
    paths: readonly string[],
    onEvent: (e: StreamEvent) => void,
    from: Places = places,
  ): ImportJob {
    log.info('import_started', { sources: paths.length });
    const job = startImportJob(dbFile, paths, from, (e) => {
      if (e.type === 'import_done') {
        log.info('import_done', {
          imported: e.summary.imported,
          duplicates: e.summary.duplicates,
          failed: e.summary.failed.length,
          cancelled: e.cancelled,
        });
      }
      onEvent(e);
    });
    jobs.add(job);
    void job.done.then(() => jobs.delete(job));
    return job;
  }

  const handlers: Handlers = {
    'app:info': () => ({
      version,
      mode: options.mode,
      vault: vault.info,
      messages: queries.messageCount(),
      demoAvailable: existsSync(demoMailbox),
    }),
    'documents:import': async (r) => {
      const imported = [];
      const failed = [];
      for (const path of r.paths) {
        try {
          imported.push(await documents.import(path));
        } catch (e) {
          // The reasons are Skimmer's sentences (documents.ts); anything else is a bug and goes to the log.
          if (!(e instanceof DocumentError)) throw e;
          failed.push({ path, reason: e.message });
        }
      }
      return { imported, failed };
    },
    'documents:list': () => documents.list(),
    'documents:read': (r) => readDocument(documents, r),
    'documents:search': (r) =>
      documents.search(r.query, r.limit).map((c) => ({
        id: c.id,
        documentId: c.documentId,
        name: c.title.split(', ')[0] ?? '',
        location: c.location,
        snippet: c.snippet,
      })),
    'mail:folders': () => queries.folders(),
    'mail:threads': (r) => queries.threads(r.folderId, r.offset, r.limit),
    'mail:thread': (r) => {
      const t = queries.thread(r.threadId);
      if (!t) throw new MailError('not_found', 'That conversation is not in the mailbox.');
      return t;
    },
    'mail:search': (r) => search(r.query, r.limit),
    'mail:import': (r) => {
      const demo = 'demo' in r;
      let job: ImportJob | undefined;
      const streamId = streams.start(() => job?.cancel());
      // Events are emitted after this call returns its streamId (the worker needs a moment to start). The demo
      // mailbox ships with Skimmer, so it is the one place outside the user's own that may be read, and only here.
      job = importFiles(
        demo ? [demoMailbox] : r.paths,
        (e) => streams.emit(streamId, e, e.type !== 'import_progress'),
        demo ? demoPlaces : places,
      );
      return { streamId };
    },
    'mail:markRead': (r) => ({ changed: queries.markRead(r.ids, r.read) }),
    // A message id that is not there is the page's mistake: `not_found` (MailError, bridge/errors.ts).
    'mail:archive': (r) => mailActions.moveToSpecial(r.ids, 'archive'),
    'mail:trash': (r) => mailActions.moveToSpecial(r.ids, 'trash'),
    'mail:retrySync': (r) => ({ queued: writeBack.retry(r.id) }),
    'mail:undoable': (r) => mailActions.undoable(r.limit),
    'draft:list': () => drafts.list(),
    'draft:save': (r) => drafts.save(r),
    'draft:send': (r) => drafts.send(r.id),
    'draft:discard': (r) => ({ discarded: drafts.discard(r.id) }),
    'mail:undo': undoHandler(mailActions),
    'service:list': () => services.list(),
    'service:add': (r) => services.add(r),
    'service:update': (r) => services.update(r),
    'service:price': (r) => services.setPrice(r.id, r.inputPrice),
    'service:models': async (r) => {
      const c = await services.connection(r.id);
      // A refusal crosses as its code and Skimmer's sentence (bridge/errors.ts); the provider's detail stays here.
      const listed = await listModels(c, c.key);
      return listed.ok ? { listed: true, models: listed.models } : { listed: false, reason: listed.reason };
    },
    'service:test': async (r) => {
      const c = await services.connection(r.id);
      return testConnection(c, c.key);
    },
    'service:consent': (r) => services.setMailConsent(r.id, r.allow),
    'service:remove': (r) => ({ removed: services.remove(r.id) }),
    ...chatHandlers({ db, services, conversations, grants, streams, log }),
    ...consentHandlers({ db, conversations, grants }),
    ...triageHandlers({ db, services, streams, log }, triageJobs),
    ...summaryHandlers({ db, services, streams, log }),
    ...accountHandlers({ db, accounts, outbox, streams, log, background: accountSync }),
    'run:cancel': (r) => ({ cancelled: streams.cancel(r.streamId) }),
    'link:open': async (r) => {
      const checked = checkExternalUrl(r.url);
      if (!checked.ok) throw new BridgeFailure('invalid_request', checked.reason);
      if (!options.openExternal) return { opened: false, url: checked.url };
      await options.openExternal(checked.url);
      return { opened: true, url: checked.url };
    },
  };

  return {
    dataDir: options.dataDir,
    services,
    conversations,
    grants,
    accounts,
    db,
    places,
    vault,
    log,
    handlers,
    streams,
    importFiles,
    async close() {
      if (sender) clearInterval(sender);
      await accountSync?.stopAll();
      for (const job of jobs) job.cancel();
      await Promise.all([...jobs].map((j) => j.done));
      db.close();
    },
  };
}
