// The chat pane (DESIGN §6, §7, §12): the stored conversations, the open one's turns, the model field, the
// composer (mail tools on or off, quoted mail), the calls a run waits for the user to approve, and at most one
// answer streaming at a time, with a Stop that always ends the wait (DESIGN §2: a stop is `run:cancel`, not a
// closed socket). Only sending or answering reaches a model service; "List models" goes through the services
// store, and only when the user presses it. Opening the pane asks Skimmer alone.
import { create } from 'zustand';
import type {
  ApprovalCall,
  CallAnswer,
  ConversationSummary,
  Request,
  StreamEvent,
} from '../../../shared/contract/index.ts';
import { bridge } from '../bridge.ts';
import { canChat, isModelRef, modelRefHint, serviceOf } from '../chat/model-ref.ts';
import {
  endedTurns,
  type LiveTurn,
  newLive,
  type ShownTurn,
  shownTurn,
  type TurnOutcome,
  withEvent,
} from '../chat/turns.ts';
import { defaultModel } from './model-choices-store.ts';
import { useServicesStore } from './services-store.ts';
import { announce } from './store-events.ts';

export type { ChatFailure, LiveTurn, ShownTurn, TurnOutcome } from '../chat/turns.ts';

// A message the user chose to ask about ("Ask in chat" in the reader); only its id goes to Skimmer.
type QuotedMessage = { id: number; subject: string; from: string };
// The calls an interrupted run waits for. `round` tells one card from the next (a provider may reuse call ids).
export type PendingRound = { conversationId: number; calls: ApprovalCall[]; round: number };

type ChatState = {
  conversations: ConversationSummary[];
  listLoaded: boolean;
  listError: string | null;
  servicesChecked: boolean;
  openId: number | null; // null: a new conversation
  turns: ShownTurn[];
  historyLoading: boolean;
  historyError: string | null;
  model: string;
  modelNote: string | null;
  listingFor: number | null; // the service whose models the user last asked for
  draft: string;
  composerError: string | null;
  tools: boolean;
  quoted: QuotedMessage[];
  pending: PendingRound | null;
  answerError: string | null;
  live: LiveTurn | null;
  focusTick: number;

  start(): Promise<void>;
  refreshList(): Promise<void>;
  openConversation(id: number): Promise<void>;
  newConversation(): void;
  setModel(model: string): void;
  /** The chat's default changed from `before` to `after` (''  for none): a field still on the old one follows. */
  followDefault(before: string, after: string): void;
  listModels(): Promise<void>;
  setDraft(draft: string): void;
  setTools(on: boolean): void;
  quoteMessage(message: QuotedMessage): void;
  unquote(id: number): void;
  send(): Promise<void>;
  answer(answers: CallAnswer[]): Promise<void>;
  stop(): Promise<void>;
};

const maxPrompt = 100_000; // the contract's bound
// If Skimmer does not confirm a stop in this time, the pane stops waiting for it.
const stopGraceMs = 5_000;
const unconfirmedStop =
  'Skimmer did not confirm the stop. What arrived is shown here, but it may not be saved.';
const maxQuoted = 20; // the contract's bound on quoted messages
const toolsKey = 'skimmer.chatTools';

// Mail tools are on unless the user turned them off (reads run; every change waits for approval, DESIGN §7).
function savedTools(): boolean {
  try {
    return localStorage.getItem(toolsKey) !== 'off';
  } catch {
    return true; // Storage can be unavailable; the default applies.
  }
}

const sameCalls = (a: readonly ApprovalCall[], b: readonly ApprovalCall[]): boolean =>
  a.length === b.length && a.every((call, i) => call.id === b[i]?.id);

export const useChatStore = create<ChatState>()((set, get) => {
  // Bookkeeping that no component renders.
  let listSerial = 0;
  let historySerial = 0;
  let nextRun = 1;
  let unsubscribe: (() => void) | null = null;
  let stopTimer: ReturnType<typeof setTimeout> | null = null;
  let cancelWanted = false;
  let rounds = 0;
  // Once the user has typed in the model field, a refreshed list never overwrites it.
  let modelTouched = false;

  function stopListening(): void {
    unsubscribe?.();
    unsubscribe = null;
    if (stopTimer) clearTimeout(stopTimer);
    stopTimer = null;
  }

  function patchLive(id: number, patch: Partial<LiveTurn>): void {
    const live = get().live;
    if (live?.id === id) set({ live: { ...live, ...patch } });
  }

  // Every way a turn ends: it joins the shown turns (if its conversation is open) with what arrived of it.
  function finish(id: number, outcome: TurnOutcome, extra: Pick<ShownTurn, 'note' | 'error'> = {}): void {
    const live = get().live;
    if (live?.id !== id) return;
    stopListening();
    const ended = endedTurns(live, outcome, extra);
    set((state) => ({
      live: null,
      turns: state.openId === live.conversationId ? [...state.turns, ...ended] : state.turns,
    }));
    void get().refreshList();
    // Approved calls may have changed mail or queued a send: the Undo and outbox bars follow (reactions.ts).
    void announce({ type: 'chat_run_ended' });
  }

  // Streams a run that Skimmer accepted (`chat:send` or `chat:answer`) into the live turn.
  async function follow(id: number, streamId: string): Promise<void> {
    patchLive(id, { streamId, status: cancelWanted ? 'stopping' : 'streaming' });
    // Subscribing right after the reply, in the same task, is early enough: the turn starts on Skimmer's next
    // tick, and its events arrive as separate socket/IPC messages after this reply.
    unsubscribe = bridge.subscribe(streamId, (event) => onEvent(id, event));
    if (cancelWanted) await sendCancel(id, streamId);
  }

  function onEvent(id: number, event: StreamEvent): void {
    const live = get().live;
    if (live?.id !== id) return;
    switch (event.type) {
      case 'chat_start':
        // Still on the new conversation it started from: that conversation is now this one.
        set((state) => ({
          live: { ...live, conversationId: event.conversationId },
          openId: state.openId === null && live.conversationId === null ? event.conversationId : state.openId,
        }));
        void get().refreshList();
        break;
      case 'chat_interrupted':
        // The run is stored with these calls open; the card at the end of the transcript asks the user.
        set({ pending: { conversationId: event.conversationId, calls: event.calls, round: ++rounds } });
        finish(id, 'interrupted');
        break;
      case 'chat_done':
        finish(id, 'done');
        break;
      case 'chat_error':
        // After Stop the server says `cancelled` once the partial answer is stored.
        if (event.code === 'cancelled') finish(id, 'stopped', { note: event.message });
        else {
          finish(id, 'failed', {
            error: { message: event.message, ...(event.detail ? { detail: event.detail } : {}) },
          });
        }
        break;
      case 'error':
        // The bridge itself (a dropped connection): the turn's fate is unknown to this page.
        finish(id, 'failed', { error: { message: event.error.message } });
        break;
      default:
        // Text, tool calls and results, quoted mail, retries, usage: the answer grows.
        set({ live: withEvent(live, event, Date.now()) });
        // A send just went into the outbox: its countdown shows now, not when the answer ends.
        if (event.type === 'chat_tool_result' && event.name === 'send_mail')
          void announce({ type: 'chat_mail_queued' });
        break;
    }
  }

  // Stop always ends the wait: if Skimmer does not confirm it in time, the pane stops waiting.
  function armStopTimeout(id: number): void {
    stopTimer ??= setTimeout(() => {
      stopTimer = null;
      finish(id, 'stopped', { note: unconfirmedStop });
    }, stopGraceMs);
  }

  async function sendCancel(id: number, streamId: string): Promise<void> {
    const reply = await bridge['run:cancel']({ streamId });
    if (!reply.ok) finish(id, 'failed', { error: { message: reply.error.message } });
  }

  return {
    conversations: [],
    listLoaded: false,
    listError: null,
    servicesChecked: false,
    openId: null,
    turns: [],
    historyLoading: false,
    historyError: null,
    model: '',
    modelNote: null,
    listingFor: null,
    draft: '',
    composerError: null,
    tools: savedTools(),
    quoted: [],
    pending: null,
    answerError: null,
    live: null,
    focusTick: 0,

    async start() {
      // The saved services only (no request to any of them): is there anything to chat with?
      const services = useServicesStore
        .getState()
        .load()
        .then(() => set({ servicesChecked: true }));
      await Promise.all([get().refreshList(), services]);
    },

    async refreshList() {
      const serial = ++listSerial;
      const reply = await bridge['chat:list']({});
      if (serial !== listSerial) return;
      if (!reply.ok) {
        set({ listLoaded: true, listError: reply.error.message });
        return;
      }
      const conversations = reply.value;
      set((state) => ({
        conversations,
        listLoaded: true,
        listError: null,
        // Until the user types here: the chat's default (DESIGN §5, "Choosing a model"), else the model used last.
        model:
          state.model === '' && !modelTouched
            ? defaultModel('chat') || (conversations[0]?.model ?? '')
            : state.model,
      }));
    },

    async openConversation(id) {
      const summary = get().conversations.find((c) => c.id === id);
      const serial = ++historySerial;
      set({
        openId: id,
        turns: [],
        historyLoading: true,
        historyError: null,
        modelNote: null,
        ...(summary ? { model: summary.model } : {}),
      });
      const reply = await bridge['chat:history']({ conversationId: id });
      if (serial !== historySerial) return;
      if (!reply.ok) {
        set({ historyLoading: false, historyError: reply.error.message });
        return;
      }
      const { turns, pending } = reply.value;
      set((state) => ({
        historyLoading: false,
        turns: turns.map(shownTurn),
        answerError: null,
        // A run that waits for approval still does after a reload: its card comes back from `pending` (the
        // same card, with the choices made on it, when the conversation is only opened again).
        pending:
          pending.length > 0
            ? state.pending?.conversationId === id && sameCalls(state.pending.calls, pending)
              ? state.pending
              : { conversationId: id, calls: pending, round: ++rounds }
            : state.pending?.conversationId === id
              ? null
              : state.pending,
      }));
    },

    newConversation() {
      historySerial++;
      set((state) => ({
        openId: null,
        turns: [],
        historyLoading: false,
        historyError: null,
        composerError: null,
        focusTick: state.focusTick + 1,
      }));
    },

    followDefault(before, after) {
      if (modelTouched && get().model.trim() !== before) return;
      set({ model: after, modelNote: null });
    },

    setModel(model) {
      modelTouched = true;
      set({ model, modelNote: null });
    },

    async listModels() {
      const services = useServicesStore.getState().services.filter((s) => canChat(s.kind));
      const names = services.map((s) => `${s.name}/…`).join(', ');
      const name = serviceOf(get().model.trim());
      const service =
        name !== null
          ? services.find((s) => s.name === name)
          : services.length === 1
            ? services[0]
            : undefined;
      if (!service) {
        set({
          modelNote:
            services.length === 0
              ? 'Add a chat service first: Services, in the top bar.'
              : name !== null
                ? `No chat service is named “${name}”. Start the field with one of: ${names}`
                : `Start the field with a service name to list its models: ${names}`,
        });
        return;
      }
      set({ modelNote: null, listingFor: service.id });
      await useServicesStore.getState().listModels(service.id);
    },

    setDraft(draft) {
      set({ draft, composerError: null });
    },

    setTools(on) {
      set({ tools: on });
      try {
        localStorage.setItem(toolsKey, on ? 'on' : 'off');
      } catch {
        // Not saved; the choice still holds for this session.
      }
    },

    quoteMessage(message) {
      // "Ask in chat" starts a new conversation (issue 17); a second message quoted before sending joins it.
      if (get().openId !== null && get().live === null) get().newConversation();
      set((state) => ({
        quoted: state.quoted.some((q) => q.id === message.id)
          ? state.quoted
          : [...state.quoted, message].slice(-maxQuoted),
        composerError: null,
        focusTick: state.focusTick + 1,
      }));
    },

    unquote(id) {
      set((state) => ({ quoted: state.quoted.filter((q) => q.id !== id) }));
    },

    async send() {
      const { draft, model, live, openId, tools, quoted } = get();
      const prompt = draft.trim();
      if (live || prompt === '') return;
      const ref = model.trim();
      if (!isModelRef(ref)) {
        set({ modelNote: modelRefHint });
        return;
      }
      // Skimmer sends quoted mail only on the tools path (its untrusted blocks are the engine's), and refuses
      // a quote without tools; saying so here keeps the user's words in the box.
      if (quoted.length > 0 && !tools) {
        set({ composerError: 'Quoted mail needs Mail tools on. Turn them on, or remove the quote.' });
        return;
      }
      if (prompt.length > maxPrompt) {
        set({ composerError: `A message can be at most ${maxPrompt.toLocaleString()} characters.` });
        return;
      }
      const id = nextRun++;
      cancelWanted = false;
      set({ draft: '', quoted: [], modelNote: null, composerError: null, live: newLive(id, openId, prompt) });
      const request: Request<'chat:send'> = { model: ref, prompt, tools };
      if (openId !== null) request.conversationId = openId;
      if (quoted.length > 0) request.quote = quoted.map((q) => q.id);
      const reply = await bridge['chat:send'](request);
      if (get().live?.id !== id) {
        // The pane already stopped waiting (an unconfirmed Stop): the answer is no longer wanted.
        if (reply.ok) void bridge['run:cancel']({ streamId: reply.value.streamId });
        return;
      }
      if (!reply.ok) {
        finish(id, 'failed', { error: { message: reply.error.message } });
        return;
      }
      // New words in a conversation that waited for approval decline its open calls (Skimmer answers them
      // "the user sent a new message instead"), so its card goes.
      set((state) => (state.pending?.conversationId === openId ? { pending: null, answerError: null } : {}));
      await follow(id, reply.value.streamId);
    },

    async answer(answers) {
      const { live, pending, model } = get();
      if (live || !pending || answers.length === 0) return;
      const id = nextRun++;
      cancelWanted = false;
      set({ answerError: null, live: newLive(id, pending.conversationId, null) });
      const request: Request<'chat:answer'> = { conversationId: pending.conversationId, answers };
      // The model field names the model for what comes next, as it does for a new message.
      if (isModelRef(model.trim())) request.model = model.trim();
      const reply = await bridge['chat:answer'](request);
      if (get().live?.id !== id) {
        if (reply.ok) void bridge['run:cancel']({ streamId: reply.value.streamId });
        return;
      }
      if (!reply.ok) {
        // Nothing ran: the card stays, with Skimmer's sentence, so the user can answer again.
        stopListening();
        set({ live: null, answerError: reply.error.message });
        return;
      }
      set((state) => (state.pending?.round === pending.round ? { pending: null } : {}));
      await follow(id, reply.value.streamId);
    },

    async stop() {
      const live = get().live;
      if (!live || live.status === 'stopping') return;
      patchLive(live.id, { status: 'stopping', retry: null });
      armStopTimeout(live.id);
      // Before `chat:send` has answered there is no stream to cancel yet; `send` cancels it on arrival.
      if (live.streamId === null) cancelWanted = true;
      else await sendCancel(live.id, live.streamId);
    },
  };
});
