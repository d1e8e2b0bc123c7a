// The composition root (DESIGN §1): builds every service from a data folder. Electron's main.ts, the
// browser mode and the CLI all use it, so the three never drift apart; only `skimmer search` runs on less
// (search-reader.ts: the same searches and dispatch, without the rest).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { channels, type StreamEvent } from '../shared/contract/index.ts';
import { prepareConversations } from './ai/chat/conversations.ts';
import { prepareDraftAssists } from './ai/grounded/draft-assists.ts';
import { prepareModelChoices } from './ai/model-choices.ts';
import { prepareGrants } from './ai/safety/grants.ts';
import { prepareServices } from './ai/services.ts';
import { mailTools } from './ai/tools/mail-tools.ts';
import type { AnyTool } from './ai/tools/tool.ts';
import { prepareNewMailTriage } from './ai/triage/new-mail-triage.ts';
import { prepareTriageJobs } from './ai/triage/triage-jobs.ts';
import { startTriageThread } from './ai/triage/triage-thread.ts';
import type { Handlers } from './bridge/dispatch.ts';
import { accountHandlers } from './bridge/handlers/accounts.ts';
import { agentHandlers } from './bridge/handlers/agents.ts';
import { appHandlers } from './bridge/handlers/app.ts';
import { approvalHandlers } from './bridge/handlers/approvals.ts';
import { type AttachmentShell, attachmentHandlers } from './bridge/handlers/attachments.ts';
import { chatHandlers } from './bridge/handlers/chat.ts';
import { discoverHandlers } from './bridge/handlers/discover.ts';
import { documentHandlers } from './bridge/handlers/documents.ts';
import { draftReplyHandlers } from './bridge/handlers/draft-replies.ts';
import { draftHandlers } from './bridge/handlers/drafts.ts';
import { fileHandlers } from './bridge/handlers/files.ts';
import { folderHandlers } from './bridge/handlers/folders.ts';
import { identityHandlers } from './bridge/handlers/identities.ts';
import { invitationHandlers } from './bridge/handlers/invitations.ts';
import { labelHandlers } from './bridge/handlers/labels.ts';
import { mailHandlers } from './bridge/handlers/mail.ts';
import { mailBulkHandlers } from './bridge/handlers/mail-bulk.ts';
import { oauthHandlers } from './bridge/handlers/oauth.ts';
import { searchHandlers } from './bridge/handlers/search.ts';
import { serviceHandlers } from './bridge/handlers/services.ts';
import { streamHandlers } from './bridge/handlers/streams.ts';
import { summaryHandlers } from './bridge/handlers/summary.ts';
import { triageHandlers } from './bridge/handlers/triage.ts';
import { unsubscribeHandlers } from './bridge/handlers/unsubscribe.ts';
import { createStreamHub } from './bridge/streams.ts';
import { openDataFolder } from './data-folder.ts';
import type { Db } from './db/open.ts';
import { announceWrites, createWriteTurn } from './db/write-turn.ts';
import { prepareDocuments } from './documents/documents.ts';
import { chosenPlaces } from './files/chosen-places.ts';
import type { PickChoice } from './files/open-dialog.ts';
import { type Places, userPlaces } from './files/safe-open.ts';
import type { Log } from './log.ts';
import { prepareAccounts } from './mail/accounts.ts';
import { prepareAttachmentBytes } from './mail/attachments/attachment-bytes.ts';
import { type AttachmentStore, attachmentStore } from './mail/attachments/attachment-store.ts';
import { prepareInvitations } from './mail/calendar/invitations.ts';
import { prepareIdentities } from './mail/identities.ts';
import { prepareAccountSync } from './mail/imap/account-sync.ts';
import { type ImportJob, startImportJob } from './mail/import/import-job.ts';
import { readBuildClients } from './mail/oauth/build-clients.ts';
import { createTokenBroker } from './mail/oauth/token-broker.ts';
import { prepareAnswers } from './mail/send/answer.ts';
import { prepareDrafts } from './mail/send/drafts.ts';
import { prepareOutbox } from './mail/send/outbox.ts';
import { prepareUploads } from './mail/send/uploads.ts';
import { prepareBulk } from './mail/store/bulk.ts';
import { prepareContacts } from './mail/store/contacts.ts';
import { prepareFoldersAdmin } from './mail/store/folders-admin.ts';
import { prepareLabelsAdmin } from './mail/store/labels-admin.ts';
import { prepareQueries } from './mail/store/queries.ts';
import { prepareMailActions } from './mail/store/undo.ts';
import { prepareWriteBack } from './mail/store/write-back.ts';
import { prepareUnsubscribe } from './mail/unsubscribe/unsubscribe.ts';
import { prepareWarnings } from './mail/warnings/warning-store.ts';
import { startPresence } from './mcp/app-presence.ts';
import { readsOn, startReadThread } from './reads/read-thread.ts';
import { prepareReads, type ReadName, type SomeReads } from './reads/reads.ts';
import { fileSealer } from './secrets/file-vault.ts';
import { createKeyVault, type KeyVault, type Sealer } from './secrets/key-vault.ts';

export const projectRoot = fileURLToPath(new URL('..', import.meta.url));
const demoMailbox = join(projectRoot, 'fixtures', 'demo');

export type AppOptions = {
  dataDir: string;
  mode: 'desktop' | 'browser';
  sealer?: Sealer;
  // Opens a URL the user confirmed, in the system browser. Browser mode has none: the page opens it.
  openExternal?: (url: string) => Promise<void>;
  // The system's open dialog, in the desktop app: the paths the user chose, none when cancelled. Browser mode has
  // none: the page browses the user's folders through `files:browse`.
  pickPaths?: (choice: PickChoice) => Promise<string[]>;
  // The desktop's save and folder dialogs and the system's opener, for attachments (main.ts). Browser mode has none:
  // the page downloads from the server's route (web/attachment-download.ts).
  attachmentShell?: AttachmentShell;
  // The desktop's notification (Electron's Notification); false when the system has none. Browser mode has none.
  notify?: (n: { title: string; body: string }) => boolean;
  // The long-running app (desktop, `skimmer serve`): sends what is due in the outbox and keeps accounts in
  // sync in the background. One-shot CLI commands do neither.
  background?: boolean;
  // `skimmer mcp` runs while the app may run on the same data folder (DESIGN §13): runs it sees open may be
  // the app's own, alive, so it closes none.
  besideTheApp?: boolean;
  // Certificate authorities (PEM) trusted beside the system's for sign-in providers and for settings found from
  // an address: a self-hosted provider behind a company's own CA. The tests hand over their test CA here.
  extraCa?: string;
  // The client ids the build brings (electron/mail/oauth/build-clients.ts); the project root's by default.
  oauthClientsFile?: string;
};

export type App = {
  dataDir: string;
  // package.json's, as `app:info` and `skimmer mcp`'s serverInfo say it.
  version: string;
  services: ReturnType<typeof prepareServices>;
  modelChoices: ReturnType<typeof prepareModelChoices>;
  conversations: ReturnType<typeof prepareConversations>;
  grants: ReturnType<typeof prepareGrants>;
  accounts: ReturnType<typeof prepareAccounts>;
  outbox: ReturnType<typeof prepareOutbox>;
  // The triage jobs the `triage:*` channels run; the CLI's judge names its messages the way they do.
  triageJobs: ReturnType<typeof prepareTriageJobs>;
  db: Db;
  /** The slow reads (reads/reads.ts): on the read thread in the long-running app, on this one in a command. */
  reads: SomeReads<ReadName>;
  /** The assistant's mail tools, built once: every run and `skimmer mcp` use these. */
  tools: readonly AnyTool[];
  // Where a file the user names may be (files/safe-open.ts): never inside this data folder.
  places: Places;
  vault: KeyVault;
  log: Log;
  /** Every channel of the contract, its schemas: what the bridge and the commands dispatch on, with `handlers`. */
  channels: typeof channels;
  handlers: Handlers;
  /** Attachments' bytes, read where each message lives and cached within a bound: the bridge's and the downloads'. */
  attachments: AttachmentStore;
  streams: ReturnType<typeof createStreamHub>;
  importFiles(paths: readonly string[], onEvent: (e: StreamEvent) => void): ImportJob;
  close(): Promise<void>;
};

export function createApp(options: AppOptions): App {
  const { dbFile, db, log } = openDataFolder(options.dataDir);
  // The long-running app's writes on this connection have the right of way over a worker's batch (an import, a
  // sync): the worker commits what it has and waits, so a write here never waits for a whole batch (DESIGN §3).
  const writeTurn = options.background ? createWriteTurn() : undefined;
  if (writeTurn) announceWrites(db, writeTurn);
  const vault = createKeyVault(db, options.sealer ?? fileSealer(options.dataDir));
  const queries = prepareQueries(db);
  // The long-running app does its slow reads (a search, a page of a big folder, the list ordered by an answer, a
  // thread with its bodies, what an answer or a drafted reply reads) on the read thread, so the bridge keeps
  // answering during them (DESIGN §3); a one-shot command reads on this one, which has nothing else to do.
  const readThread = options.background ? startReadThread(dbFile) : null;
  const reads = readsOn(readThread, prepareReads(db));
  // The read thread also copies the WAL back into the database (read-worker.ts): this connection's next commit
  // after a sync's or an import's batches would otherwise do it here, 24–95 ms of the main thread
  // (bench/main-stall.ts). Closing the last connection still checkpoints.
  if (readThread) {
    db.pragma('wal_autocheckpoint = 0');
    readThread.start();
  }
  const services = prepareServices(db, vault);
  const modelChoices = prepareModelChoices(db, services);
  const conversations = prepareConversations(db);
  const grants = prepareGrants(db);
  const mailActions = prepareMailActions(db);
  const bulk = prepareBulk(db, mailActions, queries.folders);
  const writeBack = prepareWriteBack(db);
  const accounts = prepareAccounts(db, vault);
  // SECURITY: OAuth refresh tokens are read and used on this thread only; workers ask it for access tokens.
  const net = options.extraCa ? { ca: options.extraCa } : {};
  const tokens = createTokenBroker(accounts.tokenStore(), { net });
  accounts.setTokenBroker(tokens);
  // SECURITY: every path the bridge names is opened under this rule (DESIGN §13): the user's own places (with what
  // the person chose in the desktop's own dialog), links resolved, never the data folder with the database and the
  // vault key. `skimmer import` takes the shell's places instead (cli/import.ts, safe-open.ts shellPlaces).
  // The desktop's own dialog adds what the person chose in it (files/chosen-places.ts).
  const chosen = chosenPlaces(userPlaces({ dataDir: options.dataDir }));
  const places = chosen.places;
  const demoPlaces = userPlaces({ dataDir: options.dataDir, extraRoots: [demoMailbox] });
  // A forward of imported mail reads its attachments from the files the imports read: the demo mailbox too.
  const outbox = prepareOutbox(db, Date.now, demoPlaces);
  // An attachment's bytes are read from the files the imports read (the demo mailbox too), as a forward's are.
  const attachments = attachmentStore(prepareAttachmentBytes(db, { accounts, places: demoPlaces }));
  const drafts = prepareDrafts(db);
  const uploads = prepareUploads();
  const identities = prepareIdentities(db);
  const answers = prepareAnswers(db, identities.you);
  // The assistant's and `skimmer mcp`'s mail tools, once, over the app's own services (its outbox and places).
  const tools = mailTools({ db, actions: mailActions, outbox }, reads);
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
  // The long-running app works its triage jobs on the triage thread (DESIGN §3), so judging, storing and auditing
  // the answers never hold the bridge; a command works its own, here.
  const triageThread = options.background ? startTriageThread(dbFile) : null;
  const triageJobs = prepareTriageJobs({
    db,
    services,
    ...(triageThread ? { place: triageThread } : {}),
  });
  // A triage job the app was running when it stopped carries on where it stopped.
  if (options.background) {
    for (const id of triageJobs.unfinished()) {
      triageJobs.run(id).catch((e: unknown) => log.error('triage_resume', e));
    }
  }
  // The long-running app keeps every account in sync in the background; a CLI command syncs on request.
  const accountSync = options.background
    ? prepareAccountSync({ dbFile, accounts, log, ...(writeTurn ? { turn: writeTurn } : {}) })
    : null;
  void accountSync?.startAll();
  // Question sets that run on new mail (DESIGN §9) look when an import or a sync has stored some, and at start
  // for what a CLI import stored while the app was closed.
  const newMail = prepareNewMailTriage({ db, services }, triageJobs, (e) => log.error('triage_new_mail', e));
  const ordered = reads.orderedThreads;
  const newMailArrived = () => {
    try {
      newMail.arrived();
    } catch (e) {
      log.error('triage_new_mail', e);
    }
  };
  if (options.background) newMailArrived();
  const stopNewMailWatch = accountSync?.watch((e) => {
    if (e.state === 'synced' && (e.summary?.added ?? 0) > 0) newMailArrived();
  });
  // Mail stored before the warnings existed (migration 0027) is checked in slices of 50 a turn of the event
  // loop, so the app answers meanwhile; a message read before its turn is checked when it is read.
  const warnings = prepareWarnings(db);
  let backfill: NodeJS.Timeout | null = null;
  const backfillSlice = () => {
    backfill = null;
    try {
      if (warnings.backfill(50) > 0) backfill = setTimeout(backfillSlice, 0);
    } catch (e) {
      log.error('warnings_backfill', e);
    }
  };
  if (options.background) backfill = setTimeout(backfillSlice, 0);
  // A run cut off by a restart is closed (DESIGN §3), so every stored conversation stays pairable.
  if (!options.besideTheApp) conversations.closeInterruptedRuns();
  // The running app says so, for `skimmer mcp` (mcp/app-presence.ts), and answers agents' requests.
  const leavePresence = options.background ? startPresence(db) : null;
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
    const job = startImportJob(
      dbFile,
      paths,
      from,
      (e) => {
        if (e.type === 'import_done') {
          if (options.background && e.summary.imported > 0) newMailArrived();
          log.info('import_done', {
            imported: e.summary.imported,
            duplicates: e.summary.duplicates,
            failed: e.summary.failed.length,
            cancelled: e.cancelled,
          });
        }
        onEvent(e);
      },
      writeTurn ? { turn: writeTurn } : {},
    );
    jobs.add(job);
    void job.done.then(() => jobs.delete(job));
    return job;
  }

  // An attachment's bytes are read from the files the imports read (the demo mailbox too), as a forward's are.
  // Each domain's channels (electron/bridge/handlers/), each a thin call into the services built above.
  const handlers: Handlers = {
    ...appHandlers({
      version,
      mode: options.mode,
      vault,
      queries,
      demoMailbox,
      openExternal: options.openExternal,
      notify: options.notify,
    }),
    ...mailHandlers({
      queries,
      threadPage: reads.threads,
      thread: reads.thread,
      contacts: prepareContacts(db),
      mailActions,
      writeBack,
      streams,
      importFiles,
      places,
      demo: { mailbox: demoMailbox, places: demoPlaces },
    }),
    ...mailBulkHandlers({ bulk, selectionLabels: reads.selectionLabels, searchThreads: reads.searchThreads }),
    ...documentHandlers({ documents }),
    ...searchHandlers({ search: reads.search, documents }),
    ...fileHandlers({ places, pickPaths: options.pickPaths, chosen: chosen.choose }),
    ...draftHandlers({ drafts, answers, outbox, uploads }),
    ...draftReplyHandlers({
      services,
      modelChoices,
      drafts,
      answers,
      assists: prepareDraftAssists(db),
      streams,
      log,
      replyRequest: reads.replyRequest,
    }),
    ...serviceHandlers({ services, modelChoices }),
    ...identityHandlers({ identities }),
    ...attachmentHandlers({ files: attachments, shell: options.attachmentShell }),
    // An invitation's calendar part is read as an attachment is; its answer is a draft sent at once (Undo applies).
    ...invitationHandlers({
      invitations: prepareInvitations(db, { files: attachments, drafts, identities }),
    }),
    ...labelHandlers({ labels: prepareLabelsAdmin(db), actions: mailActions }),
    ...folderHandlers({ folders: prepareFoldersAdmin(db) }),
    // SECURITY: a one-click POST trusts the system's roots, and the app's extra CA as sign-in does (net).
    ...unsubscribeHandlers({
      unsubscribe: prepareUnsubscribe(db, { outbox, you: identities.you, net: { ca: options.extraCa } }),
    }),
    ...discoverHandlers(options.extraCa ? { ca: options.extraCa } : {}),
    ...chatHandlers({ db, services, conversations, grants, streams, log, tools }),
    ...approvalHandlers({ db, conversations, grants }),
    ...agentHandlers({ db, streams }),
    ...triageHandlers({ db, services, streams, log, ordered, reads }, triageJobs, newMail),
    ...summaryHandlers({ db, services, streams, log, reads }),
    ...accountHandlers({
      db,
      accounts,
      streams,
      log,
      background: accountSync,
      // The page hears of a job new mail started and of every run's end (a stopped run's last answers included).
      newMailJobs: options.background
        ? (onJob) => {
            const leaveNew = newMail.watch(onJob);
            const leaveEnded = triageJobs.watch(onJob);
            return () => {
              leaveNew();
              leaveEnded();
            };
          }
        : null,
    }),
    ...oauthHandlers({
      accounts,
      tokens,
      log,
      background: accountSync,
      openExternal: options.openExternal,
      net,
      buildClients: readBuildClients(
        options.oauthClientsFile ?? join(projectRoot, 'oauth-clients.json'),
        (why) => log.info('oauth_clients_unusable', { why }),
      ),
    }),
    ...streamHandlers(streams),
  };

  return {
    dataDir: options.dataDir,
    version,
    services,
    modelChoices,
    conversations,
    grants,
    accounts,
    outbox,
    triageJobs,
    db,
    reads,
    tools,
    places,
    vault,
    log,
    channels,
    handlers,
    attachments,
    streams,
    importFiles,
    async close() {
      if (sender) clearInterval(sender);
      if (backfill) clearTimeout(backfill);
      leavePresence?.();
      stopNewMailWatch?.();
      await accountSync?.stopAll();
      for (const job of jobs) job.cancel();
      await Promise.all([...jobs].map((j) => j.done));
      await triageThread?.close();
      await readThread?.close();
      tokens.close();
      db.close();
    },
  };
}
