// The outbox as the page shows it (issue 5): a message the user or the assistant sends waits the undo window
// (shared/undo-window.ts) in Skimmer's outbox before it goes, and until then Undo cancels it. The list is
// read when the page starts and after each action here; from then on every change (queued, sent, failed, cancelled, dismissed, by whoever:
// this page, another one, an approved send_mail) arrives as an `outbox` event on the page's watch
// (accounts-store.ts relays them). Only while that stream is down is the list read again, every 5 s. The
// countdown ticks locally, once a second while something is queued. Undo gives the message back as a draft
// (whoever wrote it: the user, or the assistant's approved send_mail); the bar then says "Back in Drafts"
// and opens the Drafts dialog on it.
import { create } from 'zustand';
import type { OutboxItem, StreamEvent } from '../../../shared/contract/index.ts';
import { bridge } from '../bridge.ts';
import { displayText } from '../mail/display-text.ts';
import { outboxBusy, recipientsText } from '../outbox/outbox-text.ts';
import { useAppStore } from './app-store.ts';
import { announce } from './store-events.ts';

type OutboxState = {
  items: OutboxItem[];
  // The countdowns are measured from it.
  now: number;
  // Items with an action in flight.
  busy: ReadonlySet<number>;
  // The draft the last Undo on this page made, until the user opens it or closes the note.
  returned: { draft: number; to: string[] } | null;

  check(): Promise<void>;
  // The page's watch is up (events arrive) or down (the list is polled meanwhile).
  streaming(up: boolean): void;
  received(event: Extract<StreamEvent, { type: 'outbox' }>): void;
  cancel(id: number): Promise<void>;
  retry(id: number): Promise<void>;
  // A failed send goes back to the drafts, where it can be edited and sent again.
  dismiss(id: number): Promise<void>;
  openReturned(): void;
  closeReturned(): void;
};

const fallbackPollMs = 5000;
const tickMs = 1000;

const toast = (text: string) => useAppStore.getState().showError(text);

export const useOutboxStore = create<OutboxState>()((set, get) => {
  let live = false;
  let poll: ReturnType<typeof setInterval> | null = null;
  let ticker: ReturnType<typeof setInterval> | null = null;
  let reading = false;
  let again = false;
  // Messages this page saw on their way: when one of them is sent, the page says so once.
  const watched = new Set<number>();

  // A countdown is on screen only while something is queued or sending.
  function tick(): void {
    const counting = outboxBusy(get().items);
    if (counting && ticker === null) ticker = setInterval(() => set({ now: Date.now() }), tickMs);
    if (!counting && ticker !== null) {
      clearInterval(ticker);
      ticker = null;
    }
  }

  function noteSent(item: OutboxItem): void {
    if (item.state === 'queued' || item.state === 'sending') watched.add(item.id);
    else if (watched.delete(item.id) && item.state === 'sent') toast(`Sent to ${recipientsText(item.to)}.`);
  }

  function busyWith(id: number, on: boolean): void {
    set((state) => {
      const next = new Set(state.busy);
      if (on) next.add(id);
      else next.delete(id);
      return { busy: next };
    });
  }

  return {
    items: [],
    now: Date.now(),
    busy: new Set(),
    returned: null,

    async check() {
      // One read at a time; a request (or an event) during it reads once more after it, since the reply may
      // predate what the event said.
      if (reading) {
        again = true;
        return;
      }
      reading = true;
      const reply = await bridge['outbox:list']({});
      reading = false;
      if (reply.ok) {
        for (const item of reply.value) noteSent(item);
        set({ items: reply.value, now: Date.now() });
        tick();
      }
      if (again) {
        again = false;
        await get().check();
      }
    },

    streaming(up) {
      live = up;
      if (up && poll !== null) {
        clearInterval(poll);
        poll = null;
      }
      if (!up && poll === null) poll = setInterval(() => void get().check(), fallbackPollMs);
      // Back up: what changed while the stream was down is read once.
      if (up) void get().check();
    },

    received({ id, item }) {
      if (reading) again = true;
      if (item) noteSent(item);
      else {
        // It left the outbox for the drafts (Undo or "Back to drafts", here or on another page).
        watched.delete(id);
        void announce({ type: 'outbox_left_for_drafts', id });
      }
      set((state) => {
        const rest = state.items.filter((candidate) => candidate.id !== id);
        // The list is newest first, like outbox:list.
        const items = item ? [...rest, item].sort((a, b) => b.id - a.id) : rest;
        return { items, now: Date.now() };
      });
      tick();
    },

    async cancel(id) {
      const item = get().items.find((candidate) => candidate.id === id);
      if (!item || get().busy.has(id)) return;
      busyWith(id, true);
      const reply = await bridge['outbox:cancel']({ id });
      busyWith(id, false);
      if (!reply.ok) toast(reply.error.message);
      else if (reply.value.cancelled) {
        get().received({ type: 'outbox', id, item: null });
        const { draft } = reply.value;
        set({ returned: draft === null ? null : { draft, to: item.to } });
      } else toast('Too late to undo: the message is already on its way.');
      if (!live) await get().check();
    },

    async retry(id) {
      if (get().busy.has(id)) return;
      busyWith(id, true);
      const reply = await bridge['outbox:retry']({ id });
      busyWith(id, false);
      if (!reply.ok) toast(reply.error.message);
      else if (!reply.value.queued) toast('That message can no longer be retried.');
      if (!live) await get().check();
    },

    async dismiss(id) {
      if (get().busy.has(id)) return;
      busyWith(id, true);
      const reply = await bridge['outbox:dismiss']({ id });
      busyWith(id, false);
      if (!reply.ok) {
        toast(reply.error.message);
        return;
      }
      get().received({ type: 'outbox', id, item: null });
      toast(`Back in your drafts: "${displayText(reply.value.draft.subject) || '(no subject)'}".`);
    },

    openReturned() {
      const returned = get().returned;
      if (!returned) return;
      set({ returned: null });
      void announce({ type: 'returned_draft_opened', draft: returned.draft });
    },

    closeReturned() {
      set({ returned: null });
    },
  };
});
