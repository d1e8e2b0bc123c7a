// What one domain does when another changes (DESIGN §12), in one place, wired once every store exists:
// main.tsx calls `wireStoreReactions` before the first render. A store announces what no state shows
// (store-events.ts) and keeps its own state; it never imports the store that reacts, so the stores import
// each other without a circle, and importing a store never subscribes anything.

import { isOrdered } from '../triage/triage-order.ts';
import { useAccountsStore } from './accounts-store.ts';
import { useChatStore } from './chat-store.ts';
import { useComposeStore } from './compose-store.ts';
import { useDraftsStore } from './drafts-store.ts';
import { useMailStore } from './mail-store.ts';
import { useModelChoicesStore } from './model-choices-store.ts';
import { useNotifyStore } from './notify-store.ts';
import { useOrderedListStore } from './ordered-list-store.ts';
import { useOutboxStore } from './outbox-store.ts';
import { useReplyDraftStore } from './reply-draft-store.ts';
import { useSelectionStore } from './selection-store.ts';
import { useServicesStore } from './services-store.ts';
import { onStoreEvent } from './store-events.ts';
import { useSummaryStore } from './summary-store.ts';
import { useTriageStore } from './triage-store.ts';
import { useUndoStore } from './undo-store.ts';
import { useUnsubscribeStore } from './unsubscribe-store.ts';

/** Connects the stores' reactions; the returned function disconnects them. */
export function wireStoreReactions(): () => void {
  const checkOutbox = () => useOutboxStore.getState().check();
  const loadDrafts = () => useDraftsStore.getState().load();
  const off = [
    // A draft the model wrote, opened again (the reload's stash, Drafts): its citations show beside it again.
    useComposeStore.subscribe((state, previous) => {
      if (state.draftId !== null && state.draftId !== previous.draftId)
        void useReplyDraftStore.getState().restore(state.draftId);
    }),
    onStoreEvent('chat_run_ended', () => {
      // Approved calls may have changed mail: the Undo bar offers what this run did.
      void useUndoStore.getState().afterRun();
      // An approved send waits in the outbox, where Undo can still stop it.
      void checkOutbox();
    }),
    // Its countdown shows now, not when the answer ends.
    onStoreEvent('chat_mail_queued', checkOutbox),
    // The sent draft's countdown with Undo shows in the outbox bar; the send waits for that read. It has left
    // the drafts, whose count follows.
    onStoreEvent('draft_sent', () => Promise.all([checkOutbox(), loadDrafts()])),
    onStoreEvent('drafts_changed', loadDrafts),
    // A cancelled or dismissed send is a draft again.
    onStoreEvent('outbox_left_for_drafts', loadDrafts),
    // An Undo of an unsubscribe's email takes the unsubscribe back: the reader's buttons say so again.
    onStoreEvent('outbox_left_for_drafts', () => useUnsubscribeStore.getState().reload()),
    // The draft the Undo gave back opens in the composer.
    onStoreEvent('returned_draft_opened', ({ draft }) => useDraftsStore.getState().openDraft(draft)),

    // After a chat run (or a run that never started) the assistant may have written a draft (create_draft):
    // the count in the top bar follows.
    useChatStore.subscribe((state, previous) => {
      if (previous.live !== null && state.live === null) void loadDrafts();
    }),
    // Undo may take back a draft the assistant created: the count follows that too.
    useUndoStore.subscribe((state, previous) => {
      if (previous.undoing && !state.undoing) void loadDrafts();
    }),
    // A round of an account's background sync ended, one this page saw begin (not the last status the watch
    // replays when it starts): its new mail may be worth a notification.
    useAccountsStore.subscribe((state, previous) => {
      for (const [id, live] of Object.entries(state.live)) {
        const before = previous.live[Number(id)]?.status;
        const { status } = live;
        if (status.state === 'synced' && before?.state === 'syncing' && status.summary)
          useNotifyStore.getState().roundSynced(status.summary);
      }
    }),
    // The folder the page opens (or leaves for all mail) is the one whose news the background sync waits for.
    useMailStore.subscribe((state, previous) => {
      if (state.folderId !== previous.folderId) useAccountsStore.getState().showingFolder(state.folderId);
    }),
    // A selection belongs to the list it was made in: another folder, view, a search, another search or its
    // Clear clears it. The same search read again (after an Undo, say) keeps it, as the list read again does.
    useMailStore.subscribe((state, previous) => {
      const moved =
        state.folderId !== previous.folderId ||
        state.view !== previous.view ||
        (state.hits !== null) !== (previous.hits !== null) ||
        state.searchedQuery !== previous.searchedQuery;
      if (moved) useSelectionStore.getState().clear();
    }),
    // A job new mail started, or its end: the dialog's jobs, the chips and an ordered list follow.
    onStoreEvent('triage_job_changed', (event) => {
      useTriageStore.getState().jobChanged(event.job);
      if (isOrdered(useTriageStore.getState().order)) void useOrderedListStore.getState().reload(false);
    }),
    // The list ordered by an answer is read from the top when what orders it, the folder or the view changes,
    // and in place when the mail list was read again (a move, an Undo, an import) or a triage job ended.
    useTriageStore.subscribe((state, previous) => {
      if (state.order !== previous.order || state.setId !== previous.setId) {
        void useOrderedListStore.getState().reload(true);
      } else if (previous.status !== 'idle' && state.status === 'idle' && isOrdered(state.order)) {
        void useOrderedListStore.getState().reload(false);
      }
    }),
    useMailStore.subscribe((state, previous) => {
      if (!isOrdered(useTriageStore.getState().order)) return;
      if (state.folderId !== previous.folderId || state.view !== previous.view) {
        void useOrderedListStore.getState().reload(true);
      } else if (state.listGeneration !== previous.listGeneration) {
        void useOrderedListStore.getState().reload(false);
      }
    }),
    // A default set in Settings reaches every model field still on the old one (DESIGN §5, "Choosing a model").
    useModelChoicesStore.subscribe((state, previous) => {
      const { chat, summary, triage } = state.defaults;
      const before = previous.defaults;
      if (chat !== before.chat) useChatStore.getState().followDefault(before.chat ?? '', chat ?? '');
      if (summary !== before.summary)
        useSummaryStore.getState().followDefault(before.summary ?? '', summary ?? '');
      if (triage !== before.triage)
        useTriageStore.getState().followDefault(before.triage ?? '', triage ?? '');
    }),
    // A list of models the user asked for, or a changed service, is offered by every model field.
    useServicesStore.subscribe((state, previous) => {
      if (state.services !== previous.services || state.models !== previous.models) {
        void useModelChoicesStore.getState().load();
      }
    }),
  ];
  return () => {
    for (const disconnect of off) disconnect();
  };
}
