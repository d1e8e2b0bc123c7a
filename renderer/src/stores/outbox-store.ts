// The outbox as the page shows it (issue 5): a message the assistant was allowed to send waits 10 seconds in
// Skimmer's outbox before it goes, and until then Undo cancels it. The list is read when the page starts,
// after every chat run and after each action here, then once a second only while something is queued or
// sending (a countdown runs, or a send may end); a page with nothing on its way asks nothing.
import { create } from 'zustand';
import type { OutboxItem } from '../../../shared/contract.ts';
import { bridge } from '../bridge.ts';
import { outboxBusy, recipientsText } from '../outbox/outbox-text.ts';
import { useAppStore } from './app-store.ts';

type OutboxState = {
  items: OutboxItem[];
  // When the list was read: the countdowns are measured from it.
  now: number;
  // Items with an action in flight.
  busy: ReadonlySet<number>;
  // Failed items the user put away; they stay in Skimmer's outbox (there is no channel to drop one).
  dismissed: ReadonlySet<number>;

  check(): Promise<void>;
  cancel(id: number): Promise<void>;
  retry(id: number): Promise<void>;
  dismiss(id: number): void;
};

const pollMs = 1000;

const toast = (text: string) => useAppStore.getState().showError(text);

export const useOutboxStore = create<OutboxState>()((set, get) => {
  let timer: ReturnType<typeof setTimeout> | null = null;
  let reading = false;
  let again = false;
  // Messages this page saw on their way: when one of them is sent, the page says so once.
  const watched = new Set<number>();

  function schedule(): void {
    if (timer !== null) clearTimeout(timer);
    timer = outboxBusy(get().items) ? setTimeout(() => void get().check(), pollMs) : null;
  }

  function noteSent(items: readonly OutboxItem[]): void {
    for (const item of items) {
      if (item.state === 'queued' || item.state === 'sending') watched.add(item.id);
      else if (watched.delete(item.id) && item.state === 'sent') toast(`Sent to ${recipientsText(item.to)}.`);
    }
  }

  return {
    items: [],
    now: Date.now(),
    busy: new Set(),
    dismissed: new Set(),

    async check() {
      // One read at a time; a request during it reads once more after it.
      if (reading) {
        again = true;
        return;
      }
      reading = true;
      const reply = await bridge['outbox:list']({});
      reading = false;
      if (reply.ok) {
        noteSent(reply.value);
        set({ items: reply.value, now: Date.now() });
      }
      if (again) {
        again = false;
        return get().check();
      }
      schedule();
    },

    async cancel(id) {
      const item = get().items.find((candidate) => candidate.id === id);
      if (!item || get().busy.has(id)) return;
      set((state) => ({ busy: new Set(state.busy).add(id) }));
      const reply = await bridge['outbox:cancel']({ id });
      set((state) => ({ busy: without(state.busy, id) }));
      if (!reply.ok) toast(reply.error.message);
      else if (reply.value.cancelled) {
        watched.delete(id);
        toast(`Not sent: the message to ${recipientsText(item.to)} was cancelled.`);
      } else toast('Too late to undo: the message is already on its way.');
      await get().check();
    },

    async retry(id) {
      if (get().busy.has(id)) return;
      set((state) => ({ busy: new Set(state.busy).add(id) }));
      const reply = await bridge['outbox:retry']({ id });
      set((state) => ({ busy: without(state.busy, id) }));
      if (!reply.ok) toast(reply.error.message);
      else if (!reply.value.queued) toast('That message can no longer be retried.');
      await get().check();
    },

    dismiss(id) {
      set((state) => ({ dismissed: new Set(state.dismissed).add(id) }));
    },
  };
});

function without(set: ReadonlySet<number>, id: number): ReadonlySet<number> {
  const next = new Set(set);
  next.delete(id);
  return next;
}
