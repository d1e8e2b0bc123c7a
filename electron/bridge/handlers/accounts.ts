// The account channels of the bridge (issue 5): list, add (no network), test and sync (explicit actions),
// remove. Sync streams its progress; a failure is Skimmer's sentence and is remembered on the account. The
// page's watch carries the background sync's status and every outbox change; the folder the page shows is
// the one its account's background sync waits on (`account:focus`).
import type { StreamEvent, TriageJobView } from '../../../shared/contract/index.ts';
import type { Db } from '../../db/open.ts';
import type { Log } from '../../log.ts';
import type { Accounts } from '../../mail/accounts.ts';
import type { AccountSync } from '../../mail/imap/account-sync.ts';
import { MailFailure, mailFailure } from '../../mail/imap/imap-connect.ts';
import { watchOutbox } from '../../mail/send/outbox.ts';
import { prepareMessageReads } from '../../mail/store/message-reads.ts';
import { testAccount } from '../../mail/test-login.ts';
import type { Handlers } from '../dispatch.ts';
import { BridgeFailure } from '../errors.ts';
import type { StreamHub } from '../streams.ts';

type Deps = {
  db: Db;
  accounts: Accounts;
  streams: StreamHub;
  log: Log;
  // The background sync, in the long-running app; the CLI syncs once instead.
  background: AccountSync | null;
  // The jobs new mail starts for question sets (ai/triage/new-mail-triage.ts) and every triage run's end, in
  // the long-running app.
  newMailJobs: ((onJob: (job: TriageJobView) => void) => () => void) | null;
};

export function accountHandlers(
  deps: Deps,
): Pick<
  Handlers,
  | 'account:list'
  | 'account:add'
  | 'account:update'
  | 'account:test'
  | 'account:remove'
  | 'account:sync'
  | 'account:watch'
  | 'account:focus'
> {
  // An IMAP folder's account and its path on the server; imported folders have none.
  const mail = prepareMessageReads(deps.db);
  return {
    'account:focus': (r) => {
      if (r.folderId === null) return { watching: deps.background?.focus(null) ?? false };
      const folder = mail.imapFolder(r.folderId);
      if (!folder) throw new BridgeFailure('not_found', 'That folder is not in the mailbox.');
      const target = folder.path === null ? null : { accountId: folder.accountId, path: folder.path };
      return { watching: deps.background?.focus(target) ?? false };
    },
    'account:list': () => deps.accounts.list(),
    'account:add': async (r) => {
      const view = await deps.accounts.add(r);
      // Adding is not connecting: the background sync starts, and reports, on its own stream.
      void deps.background?.start(view.id).catch((e: unknown) => deps.log.error('account_sync_start', e));
      return view;
    },
    'account:update': async (r) => {
      const view = await deps.accounts.setPassword(r.id, r.password);
      // The old worker stopped on the refused password, or holds the old one: start afresh.
      await deps.background?.stop(r.id);
      void deps.background?.start(r.id).catch((e: unknown) => deps.log.error('account_sync_start', e));
      return view;
    },
    'account:watch': () => {
      let stopStatus = () => {};
      let stopJobs = () => {};
      const streamId = deps.streams.start(() => {
        stopStatus();
        stopJobs();
        stopOutbox();
        deps.streams.emit(
          streamId,
          { type: 'error', error: { code: 'cancelled', message: 'Stopped.' } },
          true,
        );
      });
      // Outbox changes reach the page whether or not a background sync runs, whoever queued, sent, cancelled
      // or dismissed the message; outbox.ts tells them on a later turn, after this reply has gone.
      const stopOutbox = watchOutbox(deps.db, (c) => deps.streams.emit(streamId, { type: 'outbox', ...c }));
      setImmediate(() => {
        stopStatus = deps.background?.watch((e) => deps.streams.emit(streamId, e)) ?? (() => {});
        stopJobs =
          deps.newMailJobs?.((job) => deps.streams.emit(streamId, { type: 'triage_job', job })) ?? (() => {});
      });
      return { streamId };
    },
    'account:test': async (r) => testAccount(await deps.accounts.login(r.id)),
    'account:remove': async (r) => {
      await deps.background?.stop(r.id);
      return { removed: deps.accounts.remove(r.id) };
    },
    'account:sync': async (r) => {
      await deps.accounts.login(r.id); // not_found before a stream starts
      // With a background sync running, "Sync now" wakes it rather than racing it on a second connection.
      if (deps.background?.running(r.id)) return followBackground(deps, r.id);
      const controller = new AbortController();
      const streamId = deps.streams.start(() => controller.abort());
      const emit = (e: StreamEvent, final = false) => deps.streams.emit(streamId, e, final);
      // The sync's code (the IMAP client, the parser) is loaded by the first sync, not at every start.
      setImmediate(() => {
        import('../../mail/imap/sync-and-record.ts')
          .then(({ syncAndRecord }) =>
            syncAndRecord(deps, r.id, {
              signal: controller.signal,
              onProgress: (p) => emit({ type: 'sync_progress', ...p }),
            }),
          )
          .then(
            (summary) => emit({ type: 'sync_done', summary }, true),
            (e: unknown) => {
              if (!(e instanceof MailFailure)) deps.log.error('account_sync', e);
              const failure = e instanceof MailFailure ? e : mailFailure(e, 'the mail server');
              emit({ type: 'error', error: { code: failure.code, message: failure.message } }, true);
            },
          );
      });
      return { streamId };
    },
  };
}

// Relays the background sync's next round as this request's stream: progress, then done or failed.
function followBackground(deps: Deps, accountId: number): { streamId: string } {
  let stop = () => {};
  const streamId = deps.streams.start(() => stop());
  const emit = (e: StreamEvent, final = false) => deps.streams.emit(streamId, e, final);
  setImmediate(() => {
    let started = false;
    stop =
      deps.background?.watch((e) => {
        if (e.accountId !== accountId) return;
        if (e.state === 'syncing') {
          started = true;
          if (e.progress) emit({ type: 'sync_progress', ...e.progress });
          return;
        }
        if (!started) return; // the last status of an earlier round
        stop();
        if (e.state === 'synced' && e.summary) emit({ type: 'sync_done', summary: e.summary }, true);
        else
          emit(
            { type: 'error', error: { code: 'transport', message: e.message ?? 'The sync failed.' } },
            true,
          );
      }) ?? (() => {});
    deps.background?.syncNow(accountId);
  });
  return { streamId };
}
