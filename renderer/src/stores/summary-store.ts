// "Summarize" and "Ask about this thread" in the reader (DESIGN §10, issue 7): the page names the open thread
// and the model, Skimmer loads the messages itself and answers with checked citations. At most one answer is
// awaited at a time, with a Stop that always ends the wait (DESIGN §2: a stop is `run:cancel`). A failure is
// Skimmer's sentence with Retry, never a half-rendered answer; a chip in the answer asks the reader to show
// the cited message (`highlight`, which MessageCard follows).
import { create } from 'zustand';
import type { GroundedView, Request, StreamEvent } from '../../../shared/contract.ts';
import { bridge } from '../bridge.ts';
import { isModelRef, modelRefHint } from '../chat/model-ref.ts';
import { useChatStore } from './chat-store.ts';

export type SummaryAsk = { threadId: number; model: string; question?: string };
export type SummaryFailure = { code: string; message: string };
type Running = { id: number; ask: SummaryAsk; streamId: string | null; stopping: boolean };

type SummaryState = {
  threadId: number | null; // the thread everything below belongs to
  model: string;
  modelNote: string | null;
  question: string;
  running: Running | null;
  result: { ask: SummaryAsk; view: GroundedView } | null;
  error: { ask: SummaryAsk; failure: SummaryFailure } | null;
  stoppedNote: string | null;
  // The message a chip asked to show; `tick` scrolls to it again when the same chip is pressed twice.
  highlight: { messageId: number; tick: number } | null;

  openThread(threadId: number): void;
  setModel(model: string): void;
  setQuestion(question: string): void;
  summarize(): Promise<void>;
  ask(): Promise<void>;
  // Asks the shown answer's (or error's) request again past the cache.
  refresh(): Promise<void>;
  stop(): Promise<void>;
  showMessage(messageId: number): void;
};

const modelKey = 'skimmer.summaryModel';
const maxQuestion = 2000; // the contract's bound
// If Skimmer does not confirm a stop in this time, the panel stops waiting for it.
const stopGraceMs = 5_000;

// The model last used here, else the chat's; there is no default model (DESIGN §5).
function savedModel(): string {
  try {
    return localStorage.getItem(modelKey) ?? '';
  } catch {
    return ''; // Storage can be unavailable; the chat's model applies.
  }
}

export const useSummaryStore = create<SummaryState>()((set, get) => {
  let nextRun = 1;
  let ticks = 0;
  let unsubscribe: (() => void) | null = null;
  let stopTimer: ReturnType<typeof setTimeout> | null = null;

  function stopListening(): void {
    unsubscribe?.();
    unsubscribe = null;
    if (stopTimer) clearTimeout(stopTimer);
    stopTimer = null;
  }

  // Every way a run ends; a run that is no longer the current one is ignored.
  function finish(id: number, patch: Partial<SummaryState>): void {
    if (get().running?.id !== id) return;
    stopListening();
    set({ running: null, ...patch });
  }

  function onEvent(id: number, ask: SummaryAsk, event: StreamEvent): void {
    if (event.type === 'summary_done') finish(id, { result: { ask, view: event.result } });
    else if (event.type === 'error') {
      // After Stop, Skimmer ends the stream as `cancelled`: that is the user's choice, not a failure.
      if (event.error.code === 'cancelled') finish(id, { stoppedNote: 'Stopped.' });
      else finish(id, { error: { ask, failure: event.error } });
    }
  }

  async function sendCancel(id: number, streamId: string): Promise<void> {
    const reply = await bridge['run:cancel']({ streamId });
    if (!reply.ok) {
      const ask = get().running?.ask;
      if (ask) finish(id, { error: { ask, failure: reply.error } });
    }
  }

  async function run(ask: SummaryAsk, refresh: boolean): Promise<void> {
    if (get().running) return;
    const id = nextRun++;
    set({
      running: { id, ask, streamId: null, stopping: false },
      result: null,
      error: null,
      stoppedNote: null,
      modelNote: null,
    });
    const request: Request<'summary:thread'> = { threadId: ask.threadId, model: ask.model, refresh };
    if (ask.question !== undefined) request.question = ask.question;
    const reply = await bridge['summary:thread'](request);
    const running = get().running;
    if (running?.id !== id) {
      // The panel already stopped waiting (another thread, an unconfirmed Stop): the answer is not wanted.
      if (reply.ok) void bridge['run:cancel']({ streamId: reply.value.streamId });
      return;
    }
    if (!reply.ok) {
      finish(id, { error: { ask, failure: reply.error } });
      return;
    }
    const { streamId } = reply.value;
    set({ running: { ...running, streamId } });
    // Subscribing in the same task as the reply is early enough: Skimmer starts the answer on its next tick.
    unsubscribe = bridge.subscribe(streamId, (event) => onEvent(id, ask, event));
    if (running.stopping) await sendCancel(id, streamId);
  }

  // The model field's value as a request's model, or a hint beside the field.
  function modelRef(): string | null {
    const ref = get().model.trim();
    if (isModelRef(ref)) return ref;
    set({ modelNote: modelRefHint });
    return null;
  }

  return {
    threadId: null,
    model: savedModel() || useChatStore.getState().model,
    modelNote: null,
    question: '',
    running: null,
    result: null,
    error: null,
    stoppedNote: null,
    highlight: null,

    openThread(threadId) {
      if (get().threadId === threadId) return;
      const running = get().running;
      // An answer about the thread that was open is no longer wanted.
      if (running?.streamId) void bridge['run:cancel']({ streamId: running.streamId });
      stopListening();
      set({
        threadId,
        running: null,
        result: null,
        error: null,
        stoppedNote: null,
        question: '',
        highlight: null,
        // Still empty: the chat may have learned a model since this store started.
        model: get().model || useChatStore.getState().model,
      });
    },

    setModel(model) {
      set({ model, modelNote: null });
      try {
        localStorage.setItem(modelKey, model);
      } catch {
        // Not saved; the field still holds it for this session.
      }
    },

    setQuestion(question) {
      set({ question: question.slice(0, maxQuestion) });
    },

    async summarize() {
      const { threadId } = get();
      const model = modelRef();
      if (threadId === null || model === null) return;
      await run({ threadId, model }, false);
    },

    async ask() {
      const { threadId } = get();
      const question = get().question.trim();
      if (threadId === null || question === '') return;
      const model = modelRef();
      if (model === null) return;
      await run({ threadId, model, question }, false);
    },

    async refresh() {
      const ask = get().result?.ask ?? get().error?.ask;
      if (ask) await run(ask, true);
    },

    async stop() {
      const running = get().running;
      if (!running || running.stopping) return;
      set({ running: { ...running, stopping: true } });
      stopTimer ??= setTimeout(() => {
        stopTimer = null;
        finish(running.id, {
          stoppedNote: 'Skimmer did not confirm the stop; the answer is no longer awaited.',
        });
      }, stopGraceMs);
      // Before Skimmer has answered there is no stream to cancel yet; `run` cancels it on arrival.
      if (running.streamId !== null) await sendCancel(running.id, running.streamId);
    },

    showMessage(messageId) {
      set({ highlight: { messageId, tick: ++ticks } });
    },
  };
});
