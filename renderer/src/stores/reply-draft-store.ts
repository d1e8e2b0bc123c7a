// "Draft reply" (issue 17; DESIGN §12, "Drafted replies"): the reader's button on a message and the composer's
// "Draft with AI" ask Skimmer for a reply the model drafts from the thread (draft:aiReply: only the message's id
// and the user's instructions leave here). The draft opens in the composer; beside its body the citations, each
// opening its message in the reader, and under it what the body says that the thread does not: checked again
// as the user edits (shared/compose/thread-facts.ts, against the thread's facts Skimmer sent). Stop is run:cancel.
import { create } from 'zustand';
import type { BridgeError, DraftedReply, Request, StreamEvent } from '../../../shared/contract/index.ts';
import { bridge } from '../bridge.ts';
import { isModelRef } from '../chat/model-ref.ts';
import { useComposeStore } from './compose-store.ts';
import { useMailStore } from './mail-store.ts';
import { useSummaryStore } from './summary-store.ts';

// What the composer shows beside a drafted reply, while that draft is open.
type Assist = Omit<DraftedReply, 'draft' | 'unverified'> & { draftId: number };

type ReplyDraftState = {
  // The message a reply is being drafted to, while the model writes it.
  running: { messageId: number; streamId: string | null; stopping: boolean } | null;
  // Skimmer's sentence about the last attempt, and the message it was for.
  error: { messageId: number; failure: BridgeError } | null;
  instructions: string;
  assist: Assist | null;

  setInstructions(text: string): void;
  draft(messageId: number, all: boolean): Promise<void>;
  stop(): Promise<void>;
  dismissError(): void;
  // Shows a cited message in the reader: the open thread scrolls to it, or the thread opens at it.
  showCited(messageId: number): void;
  // A draft opened again (after a reload, from Drafts): its citations and facts, when the model wrote it.
  restore(draftId: number): Promise<void>;
};

// The contract's bound on instructions.
const maxInstructions = 2000;

export const useReplyDraftStore = create<ReplyDraftState>()((set, get) => {
  let unsubscribe: (() => void) | null = null;

  function end(patch: Partial<ReplyDraftState>): void {
    unsubscribe?.();
    unsubscribe = null;
    set({ running: null, ...patch });
  }

  async function done(messageId: number, all: boolean, result: DraftedReply): Promise<void> {
    const { draft, unverified: _, ...rest } = result;
    end({ error: null, instructions: '' });
    // The composer closes what it had open the usual way first (saved if written, else discarded).
    if (await useComposeStore.getState().showDrafted(draft, all ? 'all' : 'reply')) {
      set({ assist: { ...rest, draftId: draft.id } });
    } else {
      set({
        error: {
          messageId,
          failure: {
            code: 'busy',
            message: `The open draft could not be saved, so the drafted reply waits in Drafts (draft ${draft.id}).`,
          },
        },
      });
    }
  }

  function onEvent(messageId: number, all: boolean, event: StreamEvent): void {
    if (event.type === 'draft_reply_done') void done(messageId, all, event.result);
    else if (event.type === 'error') {
      // After Stop the stream ends as `cancelled`: the user's choice, not a failure.
      end({ error: event.error.code === 'cancelled' ? null : { messageId, failure: event.error } });
    }
  }

  return {
    running: null,
    error: null,
    instructions: '',
    assist: null,

    setInstructions(text) {
      set({ instructions: text.slice(0, maxInstructions) });
    },

    async draft(messageId, all) {
      if (get().running) return;
      set({ running: { messageId, streamId: null, stopping: false }, error: null });
      const request: Request<'draft:aiReply'> = { message: messageId, all };
      const instructions = get().instructions.trim();
      if (instructions !== '') request.instructions = instructions;
      // The reader's summary model, which starts from the default for summaries and drafts; else Skimmer's
      // default for that task, or its sentence saying how to choose one.
      const model = useSummaryStore.getState().model.trim();
      if (isModelRef(model)) request.model = model;
      const reply = await bridge['draft:aiReply'](request);
      const running = get().running;
      if (running?.messageId !== messageId) {
        if (reply.ok) void bridge['run:cancel']({ streamId: reply.value.streamId });
        return;
      }
      if (!reply.ok) {
        end({ error: { messageId, failure: reply.error } });
        return;
      }
      const { streamId } = reply.value;
      set({ running: { ...running, streamId } });
      // Subscribing in the same task as the reply is early enough: Skimmer starts on its next tick.
      unsubscribe = bridge.subscribe(streamId, (event) => onEvent(messageId, all, event));
      if (running.stopping) await bridge['run:cancel']({ streamId });
    },

    async stop() {
      const running = get().running;
      if (!running || running.stopping) return;
      set({ running: { ...running, stopping: true } });
      // Before Skimmer has answered there is no stream yet: `draft` cancels it on arrival.
      if (running.streamId !== null) await bridge['run:cancel']({ streamId: running.streamId });
    },

    dismissError() {
      set({ error: null });
    },

    async restore(draftId) {
      if (get().assist?.draftId === draftId) return;
      const reply = await bridge['draft:assist']({ id: draftId });
      // Quietly without: the draft opens as any draft does.
      if (!reply.ok || reply.value === null) return;
      if (useComposeStore.getState().draftId !== draftId) return;
      set({ assist: { ...reply.value, draftId } });
    },

    showCited(messageId) {
      const mail = useMailStore.getState();
      if (mail.openThread?.messages.some((m) => m.id === messageId)) {
        useSummaryStore.getState().showMessage(messageId);
        return;
      }
      const threadId = get().assist?.threadId;
      if (threadId !== undefined) void mail.openThreadById(threadId, messageId);
    },
  };
});
