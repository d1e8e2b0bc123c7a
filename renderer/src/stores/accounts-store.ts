// Mail accounts (issue 5): the saved accounts, the "Add account" draft, a remove that waits for confirmation,
// each account's "Test" and "Sync now", and the live status of the background sync. The page watches that
// sync once for its lifetime (`account:watch`); when mail changed, the mail view reads it again, at most once
// a second, so new mail shows without a reload. The same stream carries the outbox's changes (relayed to the
// outbox store), and the folder the page shows is named to Skimmer (`account:focus`) so that its account's
// sync waits for news on it. Saving an account never connects; "Test" and "Sync now" do, and only when the
// user presses them (the background sync of the long-running app starts by itself).
// Adding starts with the address alone: `account:discover` fills in the rest, shown before anything logs in. An
// account that signs in with its provider (OAuth, issue 28) is started with `account:oauthStart`, whose address
// the desktop app opens itself and the browser mode's page opens in a new tab; the page then waits
// (`account:oauthWait`) until the sign-in ends, and "Sign in again" on a row does the same for a saved account.
// SECURITY: a typed password lives here only until Save sends it, and is cleared then and when the dialog
// closes; the bridge never returns one (views say `hasPassword`). No code or token of a sign-in reaches the page.
import { create } from 'zustand';
import type { AccountView, Response, StreamEvent, SyncSummary } from '../../../shared/contract/index.ts';
import {
  type AccountDraft,
  addressProblem,
  byHand,
  draftRequest,
  emptyDraft,
  type PresetKey,
  type ServerDraft,
  type SettingName,
  type SignInMethod,
  signInRequest,
  withChecked,
  withDiscovery,
  withMethod,
  withPreset,
  withServer,
} from '../accounts/account-form.ts';
import type { LiveStatus, SyncProgress } from '../accounts/account-status.ts';
import { bridge, bridgeKind } from '../bridge.ts';
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

// A sign-in at a provider, from its start until the redirect came back (or it failed, or was cancelled).
export type SignIn = {
  status: 'starting' | 'waiting' | 'cancelling';
  signInId: string | null;
  authorizeUrl: string | null;
  // The desktop app opened the provider's page in the system browser itself.
  opened: boolean;
};
type Started = Response<'account:oauthStart'>;

type AccountsState = SavedListState<AccountView> & {
  accounts: AccountView[];
  draft: AccountDraft;
  // The address step's question to Skimmer, and its sentence when nothing was found.
  discovering: boolean;
  discoverError: string | null;
  // The new account's sign-in, and each saved account's "Sign in again".
  signIn: SignIn | null;
  signIns: Record<number, SignIn>;
  runs: Record<number, SyncRun>;
  live: Record<number, LiveStatus>;
  // Ticks once a second while a status counts down, so "Retrying in 8 s" moves.
  now: number;
  // The presets this build brings its own client id for: the form's Client ID may stay empty for them.
  builtInClients: string[];

  // True when this call started the watch.
  start(): Promise<boolean>;
  stop(): void;
  // The folder the mail view shows (null: all mail) is the one whose news the background sync waits for.
  showingFolder(folderId: number | null): void;
  openDialog(): void;
  closeDialog(): void;
  escape(): void;
  setDraft(
    patch: Partial<
      Pick<
        AccountDraft,
        'address' | 'name' | 'user' | 'password' | 'smtpOn' | 'issuer' | 'clientId' | 'clientSecret'
      >
    >,
  ): void;
  setServer(which: 'imap' | 'smtp', server: ServerDraft): void;
  choosePreset(preset: PresetKey | 'custom'): void;
  chooseMethod(method: SignInMethod): void;
  setChecked(setting: SettingName, on: boolean): void;
  // The address step: ask Skimmer what the address's settings are, or type them by hand.
  discover(): Promise<void>;
  stopDiscover(): void;
  setUpByHand(): void;
  backToAddress(): void;
  add(): Promise<void>;
  startSignIn(): Promise<void>;
  signInAgain(id: number): Promise<void>;
  cancelSignIn(id: number | null): Promise<void>;
  // Opens the provider's page again (a tab the browser did not open, or one closed too soon).
  reopenSignIn(url: string): void;
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
  // Which discovery is the one still wanted (Stop and a new Continue make earlier answers stale).
  let discoverRun = 0;

  // New mail shows without a reload; the app's message count decides between the first-start page and the panes.
  const reloadMail = atMostEvery(mailReloadMs, () => {
    void useMailStore.getState().syncChanged();
    void useAppStore.getState().loadInfo();
  });
  // The account's record (last sync, last error, "Sign in again") changes with every round's end; the folder
  // list shows "Sign in again" too, so the record is read whether the dialog is open or not.
  const reloadAccounts = atMostEvery(mailReloadMs, () => {
    void get().load();
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

  // Which sign-in a call is about: the new account's (null) or a saved one's.
  const signInOf = (id: number | null) => (id === null ? get().signIn : (get().signIns[id] ?? null));
  function setSignIn(id: number | null, signIn: SignIn | null): void {
    if (id === null) set({ signIn });
    else
      set((state) => ({ signIns: signIn ? { ...state.signIns, [id]: signIn } : without(state.signIns, id) }));
  }

  // The browser mode's page opens the provider's page itself, in a new tab without an opener or referrer. The
  // desktop app's main process opened it (`opened`); if it could not, the page asks it again through link:open.
  function openPage(url: string): void {
    const mode = useAppStore.getState().info?.mode ?? bridgeKind;
    if (mode === 'browser') window.open(url, '_blank', 'noopener,noreferrer');
    else void bridge['link:open']({ url });
  }

  // Starts a sign-in and waits for it: the account as the bridge answers it, or the sentence it failed with.
  // A sign-in the dialog let go of meanwhile (closed, cancelled and started again) ends with null.
  async function runSignIn(
    id: number | null,
    start: () => Promise<{ ok: true; value: Started } | { ok: false; error: { message: string } }>,
  ): Promise<{ ok: true; value: AccountView } | { ok: false; reason: string } | null> {
    const mine: SignIn = { status: 'starting', signInId: null, authorizeUrl: null, opened: false };
    setSignIn(id, mine);
    const started = await start();
    if (signInOf(id) !== mine) {
      if (started.ok) void bridge['account:oauthCancel']({ signInId: started.value.signInId });
      return null;
    }
    if (!started.ok) {
      setSignIn(id, null);
      return { ok: false, reason: started.error.message };
    }
    const { signInId, authorizeUrl, opened } = started.value;
    const waiting: SignIn = { status: 'waiting', signInId, authorizeUrl, opened };
    setSignIn(id, waiting);
    if (!opened) openPage(authorizeUrl);
    const ended = await bridge['account:oauthWait']({ signInId });
    const now = signInOf(id);
    if (now?.signInId !== signInId) return null;
    setSignIn(id, null);
    return ended.ok ? { ok: true, value: ended.value } : { ok: false, reason: ended.error.message };
  }

  // Every sign-in still waiting is cancelled when the dialog that shows it closes.
  function cancelAll(): void {
    const all = [get().signIn, ...Object.values(get().signIns)];
    for (const s of all) if (s?.signInId) void bridge['account:oauthCancel']({ signInId: s.signInId });
    set({ signIn: null, signIns: {} });
  }

  return {
    ...savedListStart,
    accounts: [],
    draft: emptyDraft(),
    discovering: false,
    discoverError: null,
    signIn: null,
    signIns: {},
    runs: {},
    live: {},
    now: Date.now(),
    builtInClients: [],

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
      void get().load();
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
      cancelAll();
      set((state) => ({
        open: false,
        draft: { ...state.draft, password: '' },
        discoverError: null,
        confirmRemove: null,
        added: null,
        addError: null,
      }));
    },

    escape() {
      if (get().discovering) get().stopDiscover();
      else if (get().confirmRemove !== null) get().cancelRemove();
      else get().closeDialog();
    },

    async load() {
      const presets = bridge['account:oauthPresets']({}).then((r) => {
        if (r.ok) set({ builtInClients: r.value.filter((p) => p.builtInClient).map((p) => p.name) });
      });
      await loadSavedList(
        set,
        () => bridge['account:list']({}),
        (accounts) => ({ accounts }),
      );
      await presets;
    },

    setDraft(patch) {
      set((state) => ({ draft: { ...state.draft, ...patch }, addError: null }));
    },

    // Editing a server by hand leaves the provider's settings: the picker says "Other" from then on.
    setServer(which, server) {
      set((state) => ({ draft: withServer(state.draft, which, server), addError: null }));
    },

    choosePreset(preset) {
      set((state) => ({ draft: withPreset(state.draft, preset), addError: null }));
    },

    chooseMethod(method) {
      set((state) => ({ draft: withMethod(state.draft, method), addError: null }));
    },

    setChecked(setting, on) {
      set((state) => ({ draft: withChecked(state.draft, setting, on), addError: null }));
    },

    async discover() {
      const { draft, discovering } = get();
      if (discovering) return;
      const problem = addressProblem(draft.address);
      if (problem) {
        set({ discoverError: problem });
        return;
      }
      const address = draft.address.trim();
      const run = ++discoverRun;
      set({ discovering: true, discoverError: null, added: null, addError: null });
      const reply = await bridge['account:discover']({ address });
      // Stopped (and perhaps asked again) while Skimmer looked: this answer is no one's.
      if (run !== discoverRun) return;
      // The address was changed, or the step left, while Skimmer looked.
      const now = get().draft;
      set({ discovering: false });
      if (now.step !== 'address' || now.address.trim() !== address) return;
      if (!reply.ok) set({ discoverError: reply.error.message });
      else set({ draft: withDiscovery(now, reply.value) });
    },

    // Discovery asks DNS and web servers that may be slow to answer: Stop gives the address step back at once.
    // Nothing was stored or logged in to, so there is nothing to undo; the answer, when it comes, is dropped.
    stopDiscover() {
      if (!get().discovering) return;
      discoverRun += 1;
      set({ discovering: false, discoverError: null });
    },

    setUpByHand() {
      set((state) => ({ draft: byHand(state.draft), discoverError: null, added: null, addError: null }));
    },

    backToAddress() {
      if (get().signIn) return;
      set((state) => ({
        draft: { ...emptyDraft(), address: state.draft.address, name: state.draft.name },
        addError: null,
        discoverError: null,
      }));
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

    async startSignIn() {
      const { draft, signIn, adding, builtInClients } = get();
      if (signIn || adding) return;
      const request = signInRequest(draft, builtInClients);
      if (!request.ok) {
        set({ addError: request.reason, added: null });
        return;
      }
      set({ addError: null, added: null });
      const ended = await runSignIn(null, () => bridge['account:oauthStart'](request.value));
      if (!ended) return;
      if (!ended.ok) set({ addError: ended.reason });
      // Stored, and its background sync started: the row shows its status from the watch.
      else
        set((state) => ({
          draft: emptyDraft(),
          added: ended.value,
          accounts: withSaved(state.accounts, ended.value),
        }));
    },

    async signInAgain(id) {
      if (get().signIns[id]) return;
      set((state) => ({ rowErrors: without(state.rowErrors, id) }));
      const ended = await runSignIn(id, () => bridge['account:oauthSignIn']({ id }));
      if (!ended) return;
      if (!ended.ok) set((state) => ({ rowErrors: { ...state.rowErrors, [id]: ended.reason } }));
      else set((state) => ({ accounts: withSaved(state.accounts, ended.value) }));
    },

    // The wait then ends with the cancel's sentence, which the form shows.
    async cancelSignIn(id) {
      const current = signInOf(id);
      if (!current || current.status === 'cancelling') return;
      if (!current.signInId) {
        setSignIn(id, null);
        return;
      }
      setSignIn(id, { ...current, status: 'cancelling' });
      const reply = await bridge['account:oauthCancel']({ signInId: current.signInId });
      // Nothing was waiting any more (it had just ended): the wait's own answer says how.
      if (!reply.ok && signInOf(id)?.signInId === current.signInId) setSignIn(id, null);
    },

    reopenSignIn(url) {
      openPage(url);
    },

    async test(id) {
      await testSaved(get, set, id, () => bridge['account:test']({ id }));
      // A provider that refused the saved sign-in marks the account (needsSignIn): read again, the row offers
      // "Sign in again".
      const result = get().tests[id];
      if (result?.status === 'done' && !result.ok) void get().load();
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
