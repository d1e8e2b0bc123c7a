// "Summarize", "Ask about this thread (+ these documents)" and "Ask about selection" in the reader, and "Ask
// about these documents" in the Documents dialog (DESIGN §10, issue 7): the page names the thread, messages
// or documents and the model, Skimmer loads the text itself and answers with checked citations. At most one
// answer is awaited at a time, with a Stop that always ends the wait (DESIGN §2: a stop is `run:cancel`). A
// failure is Skimmer's sentence with Retry, never a half-rendered answer; a chip in the answer asks the reader
// to show the cited message (`highlight`, which MessageCard follows) or opens the cited document page.
import { create } from 'zustand';
import type { GroundedView, Request, StreamEvent } from '../../../shared/contract/index.ts';
import { bridge } from '../bridge.ts';
import { isModelRef, modelRefHint } from '../chat/model-ref.ts';
import { useChatStore } from './chat-store.ts';
import { useDocumentsStore } from './documents-store.ts';
import { useMailStore } from './mail-store.ts';
import { defaultModel } from './model-choices-store.ts';

// Where the answer is shown: the reader's panel or the Documents dialog.
export type AskPlace = 'reader' | 'documents';
// `threadId` alone (with or without a question) is summary:thread; messages or documents make it summary:ask.
export type SummaryAsk = {
  place: AskPlace;
  model: string;
  question?: string;
  threadId?: number;
  messageIds?: number[];
  documentIds?: number[];
};
type ChosenDocument = { id: number; name: string };
// A message chosen for "Ask about selection", from any thread; `threadId` lets its chip open it.
type SelectedMessage = { id: number; threadId: number; label: string };
type SummaryFailure = { code: string; message: string };
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
  stoppedPlace: AskPlace | null; // where the stopped answer was awaited
  // The message a chip asked to show; `tick` scrolls to it again when the same chip is pressed twice.
  highlight: { messageId: number; tick: number } | null;
  // Documents added to the reader's Ask ("this thread + these documents"), and the chosen messages.
  documents: ChosenDocument[];
  selection: SelectedMessage[];

  openThread(threadId: number): void;
  setModel(model: string): void;
  /** The summaries' default changed from `before` to `after`: a field still on the old one follows. */
  followDefault(before: string, after: string): void;
  setQuestion(question: string): void;
  summarize(): Promise<void>;
  ask(): Promise<void>;
  // Asks the shown answer's (or error's) request again past the cache.
  refresh(): Promise<void>;
  stop(): Promise<void>;
  showMessage(messageId: number): void;
  showDocument(documentId: number, chunkId: string): void;
  addDocument(document: ChosenDocument): void;
  removeDocument(documentId: number): void;
  toggleMessage(message: SelectedMessage): void;
  clearSelection(): void;
  askSelection(): Promise<void>;
  askDocuments(documentIds: number[], question: string): Promise<void>;
};

const maxQuestion = 2000; // the contract's bound
const maxMessages = 50; // the contract's bounds for a selection and for documents
const maxDocuments = 20;
// If Skimmer does not confirm a stop in this time, the panel stops waiting for it.
const stopGraceMs = 5_000;

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
    const running = get().running;
    if (running?.id !== id) return;
    stopListening();
    set({ running: null, stoppedPlace: running.ask.place, ...patch });
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
    const reply = await send(ask, refresh);
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

  function send(ask: SummaryAsk, refresh: boolean) {
    if (ask.messageIds === undefined && ask.documentIds === undefined && ask.threadId !== undefined) {
      const request: Request<'summary:thread'> = { threadId: ask.threadId, model: ask.model, refresh };
      if (ask.question !== undefined) request.question = ask.question;
      return bridge['summary:thread'](request);
    }
    const request: Request<'summary:ask'> = { model: ask.model, question: ask.question ?? '', refresh };
    if (ask.threadId !== undefined) request.threadId = ask.threadId;
    if (ask.messageIds !== undefined) request.messageIds = ask.messageIds;
    if (ask.documentIds !== undefined) request.documentIds = ask.documentIds;
    return bridge['summary:ask'](request);
  }

  // The documents added to the reader's Ask, as a request names them.
  function chosenDocuments(): { documentIds?: number[] } {
    const ids = get().documents.map((d) => d.id);
    return ids.length > 0 ? { documentIds: ids } : {};
  }

  // The model field's value as a request's model, or a hint beside the field.
  function modelRef(): string | null {
    const ref = get().model.trim();
    if (isModelRef(ref)) return ref;
    set({ modelNote: modelRefHint });
    return null;
  }

  // Reopening a thread shows the summary Skimmer already has for it (summary:stored asks no service), unless the
  // user has asked something here meanwhile or moved on.
  async function showStored(threadId: number): Promise<void> {
    const reply = await bridge['summary:stored']({ threadId });
    const now = get();
    if (!reply.ok || reply.value === null || now.threadId !== threadId) return;
    if (now.running !== null || now.result !== null || now.error !== null) return;
    set({
      result: { ask: { place: 'reader', threadId, model: reply.value.model }, view: reply.value.result },
    });
  }

  return {
    threadId: null,
    // The summaries' default (Settings), else the chat's model; a change here holds until the page reloads.
    model: defaultModel('summary') || useChatStore.getState().model,
    modelNote: null,
    question: '',
    running: null,
    result: null,
    error: null,
    stoppedNote: null,
    stoppedPlace: null,
    highlight: null,
    documents: [],
    selection: [],

    openThread(threadId) {
      if (get().threadId === threadId) return;
      // An answer about the thread that was open is no longer wanted; one about a selection or documents is.
      const kept = (ask: SummaryAsk | undefined) => ask !== undefined && ask.threadId === undefined;
      const running = get().running;
      const keepRunning = kept(running?.ask);
      if (!keepRunning) {
        if (running?.streamId) void bridge['run:cancel']({ streamId: running.streamId });
        stopListening();
      }
      set({
        threadId,
        running: keepRunning ? running : null,
        result: kept(get().result?.ask) ? get().result : null,
        error: kept(get().error?.ask) ? get().error : null,
        stoppedNote: null,
        question: '',
        highlight: kept(get().result?.ask) ? get().highlight : null,
        // Still empty: the chat may have learned a model since this store started.
        model: get().model || defaultModel('summary') || useChatStore.getState().model,
      });
      void showStored(threadId);
    },

    followDefault(before, after) {
      if (get().model.trim() === before) set({ model: after, modelNote: null });
    },

    setModel(model) {
      set({ model, modelNote: null });
    },

    setQuestion(question) {
      set({ question: question.slice(0, maxQuestion) });
    },

    async summarize() {
      const { threadId } = get();
      const model = modelRef();
      if (threadId === null || model === null) return;
      await run({ place: 'reader', threadId, model }, false);
    },

    async ask() {
      const { threadId } = get();
      const question = get().question.trim();
      if (threadId === null || question === '') return;
      const model = modelRef();
      if (model === null) return;
      await run({ place: 'reader', threadId, model, question, ...chosenDocuments() }, false);
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
      // A chosen message of another thread: that thread opens at it.
      const mail = useMailStore.getState();
      if (mail.openThread?.messages.some((m) => m.id === messageId)) return;
      const chosen = get().selection.find((m) => m.id === messageId);
      if (chosen) void mail.openThreadById(chosen.threadId, messageId);
    },

    showDocument(documentId, chunkId) {
      void useDocumentsStore.getState().openPage(documentId, chunkId);
    },

    addDocument(document) {
      const { documents } = get();
      if (documents.length >= maxDocuments || documents.some((d) => d.id === document.id)) return;
      set({ documents: [...documents, document] });
    },

    removeDocument(documentId) {
      set({ documents: get().documents.filter((d) => d.id !== documentId) });
    },

    toggleMessage(message) {
      const { selection } = get();
      if (selection.some((m) => m.id === message.id)) {
        set({ selection: selection.filter((m) => m.id !== message.id) });
      } else if (selection.length < maxMessages) set({ selection: [...selection, message] });
    },

    clearSelection() {
      set({ selection: [] });
    },

    async askSelection() {
      const question = get().question.trim();
      const messageIds = get().selection.map((m) => m.id);
      if (question === '' || messageIds.length === 0) return;
      const model = modelRef();
      if (model === null) return;
      await run({ place: 'reader', model, question, messageIds, ...chosenDocuments() }, false);
    },

    async askDocuments(documentIds, question) {
      if (question.trim() === '' || documentIds.length === 0) return;
      const model = modelRef();
      if (model === null) return;
      await run({ place: 'documents', model, question: question.trim(), documentIds }, false);
    },
  };
});
