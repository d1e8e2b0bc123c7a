// Mail accounts (issue 5): the saved accounts, the "Add account" draft, a remove that waits for confirmation,
// each account's "Test" and "Sync now", and the live status of the background sync. The page watches that
// sync once for its lifetime (`account:watch`); when mail changed, the mail view reads it again, at most once
// a second, so new mail shows without a reload. The same stream carries the outbox's changes (relayed to the
// outbox store), and the folder the page shows is named to Skimmer (`account:focus`) so that its account's
// sync waits for news on it. Saving an account never connects; "Test" and "Sync now" do, and only when the
// user presses them (the background sync of the long-running app starts by itself).
// SECURITY: a typed password lives here only until Save sends it, and is cleared then and when the dialog
// closes; the bridge never returns one (views say `hasPassword`).
import { create } from 'zustand';
import type { AccountView, StreamEvent, SyncSummary } from '../../../shared/contract/index.ts';
import {
  type AccountDraft,
  draftRequest,
  emptyDraft,
  type PresetKey,
  type ServerDraft,
  withPreset,
} from '../accounts/account-form.ts';
import type { LiveStatus, SyncProgress } from '../accounts/account-status.ts';
import { bridge } from '../bridge.ts';
import { useAppStore } from './app-store.ts';
import { atMostEvery } from './at-most-every.ts';
import { removeConfirmed, without } from './confirm-remove.ts';
import { useMailStore } from './mail-store.ts';
import { useOutboxStore } from './outbox-store.ts';
import {
  addSaved,
  loadSavedList,
  openSavedList,
  type SavedListState,
  savedListStart,
  testSaved,
  withSaved,
} from './saved-list.ts';
import { announce } from './store-events.ts';

// "Sync now" as its own stream: progress, then done, failed, or stopped by the user.
export type SyncRun = {
  status: 'starting' | 'running' | 'stopping' | 'done' | 'failed' | 'stopped';
  streamId: string | null;
  progress: SyncProgress | null;
  summary: SyncSummary | null;
  message: string | null;
};

type AccountsState = SavedListState<AccountView> & {
  accounts: AccountView[];
  draft: AccountDraft;
  runs: Record<number, SyncRun>;
  live: Record<number, LiveStatus>;
  // Ticks once a second while a status counts down, so "Retrying in 8 s" moves.
  now: number;

  // True when this call started the watch.
  start(): Promise<boolean>;
  stop(): void;
  // The folder the mail view shows (null: all mail) is the one whose news the background sync waits for.
  showingFolder(folderId: number | null): void;
  openDialog(): void;
  closeDialog(): void;
  escape(): void;
  setDraft(patch: Partial<Pick<AccountDraft, 'name' | 'user' | 'password' | 'smtpOn'>>): void;
  setServer(which: 'imap' | 'smtp', server: ServerDraft): void;
  choosePreset(preset: PresetKey | 'custom'): void;
  add(): Promise<void>;
  test(id: number): Promise<void>;
  syncNow(id: number): Promise<void>;
  stopSync(id: number): Promise<void>;
  askRemove(id: number): void;
  cancelRemove(): void;
  remove(): Promise<void>;
};

const mailReloadMs = 1000;
const watchRetryMs = 5000;

export const isRunBusy = (run: SyncRun | undefined) =>
  run?.status === 'starting' || run?.status === 'running' || run?.status === 'stopping';

// Which folder's news to wait for is a hint: a folder gone meanwhile (not_found) or one no background sync
// watches changes nothing the user sees, so the reply is not shown.
function focusFolder(folderId: number | null): void {
  void bridge['account:focus']({ folderId });
}

export const useAccountsStore = create<AccountsState>()((set, get) => {
  let watchId: string | null = null;
  let unwatch: (() => void) | null = null;
  let watching = false;
  let ticker: ReturnType<typeof setInterval> | null = null;
  const runListeners = new Map<number, () => void>();

  // New mail shows without a reload; the app's message count decides between the first-start page and the panes.
  const reloadMail = atMostEvery(mailReloadMs, () => {
    void useMailStore.getState().syncChanged();
    void useAppStore.getState().loadInfo();
  });
  // The account's record (last sync, last error) changes with every round's end.
  const reloadAccounts = atMostEvery(mailReloadMs, () => {
    if (get().open) void get().load();
  });

  function tick(): void {
    const counting = Object.values(get().live).some((l) => l.status.state === 'retrying');
    if (counting && ticker === null) ticker = setInterval(() => set({ now: Date.now() }), 1000);
    if (!counting && ticker !== null) {
      clearInterval(ticker);
      ticker = null;
    }
  }

  function onWatch(event: StreamEvent): void {
    if (event.type === 'account_status') {
      const now = Date.now();
      set((state) => {
        // A stored batch is reported without progress; the line keeps the count it had rather than flicker.
        const before = state.live[event.accountId]?.status;
        const status =
          event.state === 'syncing' && event.progress === null && before?.state === 'syncing'
            ? { ...event, progress: before.progress }
            : event;
        return { live: { ...state.live, [event.accountId]: { status, at: now } }, now };
      });
      tick();
      if (event.changed) reloadMail.request();
      if (event.state !== 'syncing') reloadAccounts.request();
    } else if (event.type === 'outbox') {
      useOutboxStore.getState().received(event);
    } else if (event.type === 'triage_job') {
      void announce({ type: 'triage_job_changed', job: event.job });
    } else if (event.type === 'error' && event.error.code !== 'cancelled') {
      // The connection to Skimmer dropped (browser mode): watch again once it can be reached, and read the
      // mail again then, since changes may have been missed meanwhile.
      get().stop();
      rewatch();
    }
  }

  function rewatch(): void {
    setTimeout(() => {
      void get()
        .start()
        .then((ok) => {
          if (ok) reloadMail.request();
        });
    }, watchRetryMs);
  }

  function patchRun(id: number, patch: Partial<SyncRun>): void {
    const run = get().runs[id];
    if (run) set((state) => ({ runs: { ...state.runs, [id]: { ...run, ...patch } } }));
  }

  function stopListening(id: number): void {
    runListeners.get(id)?.();
    runListeners.delete(id);
  }

  function endRun(id: number, patch: Partial<SyncRun>): void {
    stopListening(id);
    patchRun(id, { ...patch, streamId: null });
  }

  function onRunEvent(id: number, event: StreamEvent): void {
    if (!isRunBusy(get().runs[id])) return;
    if (event.type === 'sync_progress') {
      patchRun(id, {
        status: get().runs[id]?.status === 'stopping' ? 'stopping' : 'running',
        progress: event,
      });
    } else if (event.type === 'sync_done') {
      endRun(id, { status: 'done', summary: event.summary });
      reloadMail.request();
      void get().load();
    } else if (event.type === 'error') {
      const stopped = event.error.code === 'cancelled';
      endRun(id, { status: stopped ? 'stopped' : 'failed', message: stopped ? null : event.error.message });
      if (!stopped) void get().load();
    }
  }

  return {
    ...savedListStart,
    accounts: [],
    draft: emptyDraft(),
    runs: {},
    live: {},
    now: Date.now(),

    // Once per page: the watch stream carries every account's status from now on, starting with the latest.
    async start() {
      if (watching) return false;
      watching = true;
      const reply = await bridge['account:watch']({});
      if (!reply.ok) {
        watching = false;
        useOutboxStore.getState().streaming(false);
        if (reply.error.code === 'io') rewatch();
        return false;
      }
      // The page went while the watch was being set up.
      if (!watching) {
        void bridge['run:cancel']({ streamId: reply.value.streamId });
        return false;
      }
      watchId = reply.value.streamId;
      // Subscribing right after the reply, in the same task, is early enough: the first status is sent on
      // Skimmer's next tick, as a separate socket/IPC message.
      unwatch = bridge.subscribe(watchId, onWatch);
      useOutboxStore.getState().streaming(true);
      // A Skimmer that restarted (browser mode) does not know which folder this page shows. A page showing
      // all mail says nothing, so that opening one does not take the focus from another page's folder.
      const { folderId } = useMailStore.getState();
      if (folderId !== null) focusFolder(folderId);
      return true;
    },

    // When the page goes (a reload, a closed tab) Skimmer is told, so the watch does not outlive it there.
    // Best effort: a closing page may not get the message out.
    stop() {
      const streamId = watchId;
      unwatch?.();
      unwatch = null;
      watchId = null;
      watching = false;
      useOutboxStore.getState().streaming(false);
      if (streamId) void bridge['run:cancel']({ streamId });
    },

    showingFolder(folderId) {
      focusFolder(folderId);
    },

    openDialog() {
      openSavedList(get, set);
    },

    closeDialog() {
      set((state) => ({
        open: false,
        draft: { ...state.draft, password: '' },
        confirmRemove: null,
        added: null,
        addError: null,
      }));
    },

    escape() {
      if (get().confirmRemove !== null) get().cancelRemove();
      else get().closeDialog();
    },

    async load() {
      await loadSavedList(
        set,
        () => bridge['account:list']({}),
        (accounts) => ({ accounts }),
      );
    },

    setDraft(patch) {
      set((state) => ({ draft: { ...state.draft, ...patch }, addError: null }));
    },

    // Editing a server by hand leaves the provider's settings: the picker says "Other" from then on.
    setServer(which, server) {
      set((state) => ({ draft: { ...state.draft, [which]: server, preset: 'custom' }, addError: null }));
    },

    choosePreset(preset) {
      set((state) => ({ draft: withPreset(state.draft, preset), addError: null }));
    },

    async add() {
      const { draft, adding } = get();
      if (adding) return;
      const request = draftRequest(draft);
      if (!request.ok) {
        set({ addError: request.reason, added: null });
        return;
      }
      await addSaved(
        get,
        set,
        () => bridge['account:add'](request.value),
        (state, view) => ({ draft: emptyDraft(), accounts: withSaved(state.accounts, view) }),
      );
    },

    async test(id) {
      await testSaved(get, set, id, () => bridge['account:test']({ id }));
    },

    async syncNow(id) {
      if (isRunBusy(get().runs[id])) return;
      const fresh: SyncRun = {
        status: 'starting',
        streamId: null,
        progress: null,
        summary: null,
        message: null,
      };
      set((state) => ({ runs: { ...state.runs, [id]: fresh } }));
      const reply = await bridge['account:sync']({ id });
      if (!reply.ok) {
        patchRun(id, { status: 'failed', message: reply.error.message });
        return;
      }
      const { streamId } = reply.value;
      // Stop was pressed before the sync had an id.
      if (get().runs[id]?.status !== 'starting') {
        void bridge['run:cancel']({ streamId });
        return;
      }
      patchRun(id, { status: 'running', streamId });
      runListeners.set(
        id,
        bridge.subscribe(streamId, (event) => onRunEvent(id, event)),
      );
    },

    // Stop always ends the wait: with a background sync running, "Sync now" only follows its round, and a
    // cancelled follow sends no final event; the round itself goes on in the background.
    async stopSync(id) {
      const run = get().runs[id];
      if (!isRunBusy(run) || run?.status === 'stopping') return;
      if (!run?.streamId) {
        patchRun(id, { status: 'stopped' });
        return;
      }
      patchRun(id, { status: 'stopping' });
      const reply = await bridge['run:cancel']({ streamId: run.streamId });
      if (get().runs[id]?.status !== 'stopping') return;
      endRun(id, reply.ok ? { status: 'stopped' } : { status: 'failed', message: reply.error.message });
    },

    askRemove(id) {
      set({ confirmRemove: id });
    },

    cancelRemove() {
      if (!get().removing) set({ confirmRemove: null });
    },

    async remove() {
      const id = await removeConfirmed(
        get,
        set,
        (id) => bridge['account:remove']({ id }),
        (state, id) => ({
          accounts: state.accounts.filter((a) => a.id !== id),
          added: state.added?.id === id ? null : state.added,
          tests: without(state.tests, id),
          runs: without(state.runs, id),
          live: without(state.live, id),
        }),
      );
      if (id === null) return;
      stopListening(id);
      // Its mail went with it: the mail view and the app's count are read again.
      void useMailStore.getState().refresh();
      void useAppStore.getState().loadInfo();
    },
  };
});
