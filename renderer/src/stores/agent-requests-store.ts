// Requests from outside agents (`skimmer mcp`, DESIGN §13 "Outside agents"): the calls that wait for the
// user's answer in the app, kept up to date by one `agent:watch` stream for the page's lifetime, and the
// answer to each. When an agent's call changed the mail, the mail view, the drafts and the outbox are read
// again and the Undo bar offers the change, as after an assistant's run.
import { create } from 'zustand';
import type { AgentRequestView, StreamEvent } from '../../../shared/contract/index.ts';
import { bridge } from '../bridge.ts';
import { useDraftsStore } from './drafts-store.ts';
import { useMailStore } from './mail-store.ts';
import { useOutboxStore } from './outbox-store.ts';
import { useUndoStore } from './undo-store.ts';

type AgentRequestsState = {
  requests: AgentRequestView[];
  open: boolean;
  // Requests being answered, so their buttons wait.
  answering: number[];
  error: string | null;

  start(): Promise<void>;
  openDialog(): void;
  closeDialog(): void;
  answer(id: number, decision: 'approve' | 'deny'): Promise<void>;
};

export const useAgentRequestsStore = create<AgentRequestsState>()((set, get) => {
  let watching = false;

  function onEvent(event: StreamEvent): void {
    if (event.type !== 'agent_requests') return;
    const requests = event.requests;
    // The badge tells of a request; the dialog never opens by itself (it would take the focus from what the
    // user is doing, and a card should be read before it is answered). It closes when nothing waits.
    set({ requests, open: requests.length > 0 && get().open });
    if (event.changed) {
      // The bar names the agent, as the app's assistant is named: "Claude Desktop: Archived 1 message".
      void useUndoStore.getState().afterRun(event.agent ?? 'An outside agent');
      void useOutboxStore.getState().check();
      void useDraftsStore.getState().load();
      void useMailStore.getState().refresh();
    }
  }

  return {
    requests: [],
    open: false,
    answering: [],
    error: null,

    async start() {
      if (watching) return;
      watching = true;
      const reply = await bridge['agent:watch']({});
      if (!reply.ok) {
        watching = false;
        return;
      }
      bridge.subscribe(reply.value.streamId, onEvent);
    },

    openDialog() {
      set({ open: true, error: null });
    },

    closeDialog() {
      set({ open: false });
    },

    async answer(id, decision) {
      const request = get().requests.find((r) => r.id === id);
      if (!request) return;
      set((state) => ({ answering: [...state.answering, id], error: null }));
      // SECURITY: the answer names the request and the hash of the arguments this card showed.
      const reply = await bridge['agent:answer']({ id, argsHash: request.call.argsHash, decision });
      set((state) => ({
        answering: state.answering.filter((a) => a !== id),
        requests: reply.ok ? state.requests.filter((r) => r.id !== id) : state.requests,
        error: reply.ok ? null : reply.error.message,
      }));
      if (get().requests.length === 0) set({ open: false });
    },
  };
});
