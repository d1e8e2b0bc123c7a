// The import dialog: files and folders the user chose (file-pick-store.ts: the system dialog or Skimmer's own
// browser), paths typed, or the demo mailbox; one import stream at a time, its progress, its summary, and a Cancel
// that always ends the wait (DESIGN §2: a stop is `run:cancel`, not a closed socket).
import { create } from 'zustand';
import type { ImportSummary, Request, StreamEvent } from '../../../shared/contract/index.ts';
import { bridge } from '../bridge.ts';
import { useAppStore } from './app-store.ts';
import { maxChosenPaths, useFilePickStore } from './file-pick-store.ts';
import { useMailStore } from './mail-store.ts';

type ImportProgress = Extract<StreamEvent, { type: 'import_progress' }>;
export type ImportStatus = 'idle' | 'starting' | 'running' | 'cancelling' | 'done' | 'failed';

type ImportState = {
  open: boolean;
  pathsText: string;
  status: ImportStatus;
  streamId: string | null;
  progress: ImportProgress | null;
  summary: ImportSummary | null;
  cancelled: boolean;
  error: string | null;

  openDialog(): void;
  closeDialog(): void;
  setPathsText(text: string): void;
  importPaths(): Promise<void>;
  chooseAndImport(kind: 'files' | 'folders'): Promise<void>;
  importDemo(): Promise<void>;
  cancel(): Promise<void>;
};

const maxPaths = maxChosenPaths; // the contract's bound
// If Skimmer does not confirm a stop in this time, the dialog stops waiting for it.
const cancelGraceMs = 10_000;

export const isImportBusy = (status: ImportStatus) =>
  status === 'starting' || status === 'running' || status === 'cancelling';

export const useImportStore = create<ImportState>()((set, get) => {
  let unsubscribe: (() => void) | null = null;
  let cancelWanted = false;
  let cancelTimer: ReturnType<typeof setTimeout> | null = null;

  function stopListening(): void {
    unsubscribe?.();
    unsubscribe = null;
    if (cancelTimer) clearTimeout(cancelTimer);
    cancelTimer = null;
  }

  // After any ending, what was imported so far is shown.
  function refreshMail(): void {
    void useMailStore.getState().reloadAfterImport();
    void useAppStore.getState().loadInfo();
  }

  function onEvent(event: StreamEvent): void {
    if (!isImportBusy(get().status)) return;
    if (event.type === 'import_progress') {
      set({ progress: event });
    } else if (event.type === 'import_done') {
      stopListening();
      set({ status: 'done', summary: event.summary, cancelled: event.cancelled });
      refreshMail();
    } else if (event.type === 'error') {
      stopListening();
      set({ status: 'failed', error: event.error.message });
      refreshMail();
    }
  }

  // Cancel always ends the wait: if Skimmer does not confirm the stop in time, the dialog stops waiting.
  function armCancelTimeout(): void {
    cancelTimer ??= setTimeout(() => {
      cancelTimer = null;
      if (get().status !== 'cancelling') return;
      stopListening();
      set({
        status: 'failed',
        error: 'Skimmer did not confirm the stop. Messages imported so far are kept.',
      });
      refreshMail();
    }, cancelGraceMs);
  }

  async function sendCancel(streamId: string): Promise<void> {
    const reply = await bridge['run:cancel']({ streamId });
    if (!reply.ok && get().status === 'cancelling') {
      stopListening();
      set({ status: 'failed', error: reply.error.message });
      refreshMail();
    }
  }

  async function begin(request: Request<'mail:import'>): Promise<void> {
    stopListening();
    cancelWanted = false;
    set({
      open: true,
      status: 'starting',
      streamId: null,
      progress: null,
      summary: null,
      cancelled: false,
      error: null,
    });
    const reply = await bridge['mail:import'](request);
    if (!reply.ok) {
      if (isImportBusy(get().status)) set({ status: 'failed', error: reply.error.message });
      return;
    }
    const { streamId } = reply.value;
    // The user pressed Cancel before the import had an id, and may have stopped waiting since.
    if (!isImportBusy(get().status)) {
      void bridge['run:cancel']({ streamId });
      return;
    }
    set({ streamId, status: cancelWanted ? 'cancelling' : 'running' });
    // Subscribing right after the reply, in the same task, is early enough: replies and stream events arrive
    // as separate socket/IPC messages, so none can be delivered before this line runs.
    unsubscribe = bridge.subscribe(streamId, onEvent);
    if (cancelWanted) await sendCancel(streamId);
  }

  return {
    open: false,
    pathsText: '',
    status: 'idle',
    streamId: null,
    progress: null,
    summary: null,
    cancelled: false,
    error: null,

    openDialog() {
      if (!get().open) set({ open: true, error: isImportBusy(get().status) ? get().error : null });
    },

    closeDialog() {
      if (isImportBusy(get().status)) return;
      if (useFilePickStore.getState().browsing === 'mail') useFilePickStore.getState().cancel();
      set({ open: false, status: 'idle', progress: null, summary: null, error: null });
    },

    setPathsText(pathsText) {
      set({ pathsText });
    },

    async importPaths() {
      const paths = get()
        .pathsText.split(/\r?\n/)
        .map((line) => line.trim())
        .filter((line) => line !== '');
      if (paths.length === 0) {
        set({
          status: 'idle',
          error: 'Enter at least one path: an .eml or .mbox file, or a Maildir folder.',
        });
        return;
      }
      if (paths.length > maxPaths) {
        set({ status: 'idle', error: `Import at most ${maxPaths} paths at a time.` });
        return;
      }
      await begin({ paths });
    },

    async chooseAndImport(kind) {
      if (isImportBusy(get().status)) return;
      set({ error: null });
      const paths = await useFilePickStore.getState().choose('mail', kind);
      // Cancelled, or the dialog was closed meanwhile.
      if (paths.length === 0 || !get().open) return;
      await begin({ paths });
    },

    async importDemo() {
      await begin({ demo: true });
    },

    async cancel() {
      const { status, streamId } = get();
      if (status === 'starting') {
        cancelWanted = true;
        set({ status: 'cancelling' });
        armCancelTimeout();
      } else if (status === 'running' && streamId) {
        set({ status: 'cancelling' });
        armCancelTimeout();
        await sendCancel(streamId);
      }
    },
  };
});
