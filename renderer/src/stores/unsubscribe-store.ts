// The reader's Unsubscribe button (issue 29 §3): what each message shown offers (`unsubscribe:options`), the
// confirmation that names where it goes, and doing it (`unsubscribe:run`) only after that confirmation. A page to
// open goes through the link confirmation (LinkConfirm.tsx) instead, which is the asking. What was done is kept on
// the sender, so every message of that sender shown says "Unsubscribed on DATE" from then on.
import { create } from 'zustand';
import type { UnsubscribeOptions } from '../../../shared/contract/index.ts';
import { bridge } from '../bridge.ts';
import { useMailStore } from './mail-store.ts';

type Unsubscribed = NonNullable<UnsubscribeOptions['unsubscribed']>;

type UnsubscribeState = {
  /** What each message shown offers, by message id, once read. */
  offers: Record<number, UnsubscribeOptions>;
  /** The message whose confirmation is open (a request or an email: a page asks in LinkConfirm). */
  confirming: number | null;
  /** The message being unsubscribed from now. */
  running: number | null;
  /** What the last attempt for a message failed with: Skimmer's sentence, naming the host. */
  errors: Record<number, string>;

  load(message: number): Promise<void>;
  /** The outbox's Undo may have taken an unsubscribe back: what is shown is read again. */
  reload(): Promise<void>;
  ask(message: number): void;
  dismiss(): void;
  confirm(): Promise<void>;
};

export const useUnsubscribeStore = create<UnsubscribeState>()((set, get) => {
  function failed(message: number, text: string): void {
    set((state) => ({ errors: { ...state.errors, [message]: text } }));
  }

  // Every message of that sender shown says so now.
  function kept(sender: string, unsubscribed: Unsubscribed): void {
    set((state) => ({
      offers: Object.fromEntries(
        Object.entries(state.offers).map(([id, offer]) => [
          id,
          offer.sender === sender ? { ...offer, unsubscribed } : offer,
        ]),
      ),
    }));
  }

  async function run(message: number): Promise<string | null> {
    const offer = get().offers[message];
    if (!offer || get().running !== null) return null;
    set((state) => {
      const { [message]: _gone, ...errors } = state.errors;
      return { running: message, errors };
    });
    const reply = await bridge['unsubscribe:run']({ message });
    set({ running: null });
    if (!reply.ok) {
      failed(message, reply.error.message);
      return null;
    }
    kept(offer.sender, { at: reply.value.at, method: reply.value.method });
    return reply.value.url ?? '';
  }

  return {
    offers: {},
    confirming: null,
    running: null,
    errors: {},

    async load(message) {
      const reply = await bridge['unsubscribe:options']({ message });
      if (reply.ok) set((state) => ({ offers: { ...state.offers, [message]: reply.value } }));
    },

    async reload() {
      await Promise.all(Object.keys(get().offers).map((id) => get().load(Number(id))));
    },

    ask(message) {
      const target = get().offers[message]?.target;
      if (!target) return;
      if (target.method !== 'http') {
        set({ confirming: message });
        return;
      }
      // SECURITY (DESIGN §12): the page opens only from the link confirmation, after the person saw its address.
      useMailStore.getState().askToOpenLink(target.url, '', {
        title: `Open ${target.host} in your browser to unsubscribe?`,
        beforeOpen: async () => (await run(message)) !== null,
      });
    },

    dismiss() {
      set({ confirming: null });
    },

    async confirm() {
      const message = get().confirming;
      set({ confirming: null });
      if (message !== null) await run(message);
    },
  };
});
