// The composition root (DESIGN §1): builds every service from a data folder. Electron's main.ts, the
// browser mode and the CLI all use it, so the three never drift apart.
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { StreamEvent } from '../shared/contract/index.ts';
import { prepareConversations } from './ai/chat/conversations.ts';
import { prepareGrants } from './ai/safety/grants.ts';
import { prepareServices } from './ai/services.ts';
import { prepareTriageJobs } from './ai/triage/triage-jobs.ts';
import type { Handlers } from './bridge/dispatch.ts';
import { accountHandlers } from './bridge/handlers/accounts.ts';
import { appHandlers } from './bridge/handlers/app.ts';
import { approvalHandlers } from './bridge/handlers/approvals.ts';
import { chatHandlers } from './bridge/handlers/chat.ts';
import { documentHandlers } from './bridge/handlers/documents.ts';
import { draftHandlers } from './bridge/handlers/drafts.ts';
import { identityHandlers } from './bridge/handlers/identities.ts';
import { mailHandlers } from './bridge/handlers/mail.ts';
import { serviceHandlers } from './bridge/handlers/services.ts';
import { streamHandlers } from './bridge/handlers/streams.ts';
import { summaryHandlers } from './bridge/handlers/summary.ts';
import { triageHandlers } from './bridge/handlers/triage.ts';
import { createStreamHub } from './bridge/streams.ts';
import { type Db, openDatabase } from './db/open.ts';
import { prepareDocuments } from './documents/documents.ts';
import { type Places, userPlaces } from './files/safe-open.ts';
import { fileLog, type Log } from './log.ts';
import { prepareAccounts } from './mail/accounts.ts';
import { prepareIdentities } from './mail/identities.ts';
import { prepareAccountSync } from './mail/imap/account-sync.ts';
import { prepareWriteBack } from './mail/imap/write-back.ts';
import { type ImportJob, startImportJob } from './mail/import/import-job.ts';
import { prepareAnswers } from './mail/send/answer.ts';
import { prepareDrafts } from './mail/send/drafts.ts';
import { prepareOutbox } from './mail/send/outbox.ts';
import { prepareQueries } from './mail/store/queries.ts';
import { prepareSearch } from './mail/store/search.ts';
import { startSearchThread } from './mail/store/search-thread.ts';
import { prepareMailActions } from './mail/store/undo.ts';
import { fileSealer } from './secrets/file-vault.ts';
import { createKeyVault, type KeyVault, type Sealer } from './secrets/key-vault.ts';

export const projectRoot = fileURLToPath(new URL('..', import.meta.url));
const demoMailbox = join(projectRoot, 'fixtures', 'demo');
export const dbFileName = 'skimmer.db';
const logFileName = 'skimmer.log';

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
  outbox: ReturnType<typeof prepareOutbox>;
  // The triage jobs the `triage:*` channels run; the CLI's judge names its messages the way they do.
  triageJobs: ReturnType<typeof prepareTriageJobs>;
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
  // The long-running app searches on a thread of its own, so the bridge keeps answering during a big query
  // (DESIGN §3); a one-shot command searches on this one, which has nothing else to do.
  const searchThread = options.background ? startSearchThread(dbFile) : null;
  const search = searchThread ? searchThread.search : prepareSearch(db);
  const services = prepareServices(db, vault);
  const conversations = prepareConversations(db);
  const grants = prepareGrants(db);
  const mailActions = prepareMailActions(db);
  const writeBack = prepareWriteBack(db);
  const accounts = prepareAccounts(db, vault);
  const outbox = prepareOutbox(db);
  const drafts = prepareDrafts(db);
  const identities = prepareIdentities(db);
  const answers = prepareAnswers(db, identities.you);
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

  // Each domain's channels (electron/bridge/handlers/), each a thin call into the services built above.
  const handlers: Handlers = {
    ...appHandlers({
      version,
      mode: options.mode,
      vault,
      queries,
      demoMailbox,
      openExternal: options.openExternal,
    }),
    ...mailHandlers({
      queries,
      search,
      mailActions,
      writeBack,
      streams,
      importFiles,
      places,
      demo: { mailbox: demoMailbox, places: demoPlaces },
    }),
    ...documentHandlers({ documents }),
    ...draftHandlers({ drafts, answers, outbox }),
    ...serviceHandlers({ services }),
    ...identityHandlers({ identities }),
    ...chatHandlers({ db, services, conversations, grants, streams, log }),
    ...approvalHandlers({ db, conversations, grants }),
    ...triageHandlers({ db, services, streams, log }, triageJobs),
    ...summaryHandlers({ db, services, streams, log }),
    ...accountHandlers({ db, accounts, streams, log, background: accountSync }),
    ...streamHandlers(streams),
  };

  return {
    dataDir: options.dataDir,
    services,
    conversations,
    grants,
    accounts,
    outbox,
    triageJobs,
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
      await searchThread?.close();
      db.close();
    },
  };
}
