// The user's choices on the open approval card (DESIGN §7): approve or deny each call, a reason for a denial,
// how widely to allow a tool. The calls themselves come from the chat store (`pending`); the card answers once
// every call has a decision, or at once with Approve all / Deny all, and the run resumes in the chat pane.
// Choices live here rather than in the card so that switching to Mail and back keeps them.
import { create } from 'zustand';
import {
  allDecided,
  answersFor,
  type CallChoice,
  type Choices,
  choiceFor,
  type Decision,
} from '../approvals/approval-answers.ts';
import { useChatStore } from './chat-store.ts';

type ApprovalState = {
  round: number; // the card these choices belong to (chat store's `pending.round`)
  choices: Choices;

  edit(round: number, callId: string, patch: Partial<Pick<CallChoice, 'reason' | 'grant'>>): void;
  decide(round: number, callId: string, decision: Decision): void;
  decideAll(round: number, decision: Decision): void;
  submit(round: number): void;
};

export const useApprovalStore = create<ApprovalState>()((set, get) => {
  // The open card's calls, or null when `round` is not the open card (answered, or replaced by another).
  function callsOf(round: number) {
    const pending = useChatStore.getState().pending;
    return pending?.round === round ? pending.calls : null;
  }

  function choicesOf(round: number): Choices {
    return get().round === round ? get().choices : {};
  }

  function change(round: number, callId: string, patch: Partial<CallChoice>): Choices | null {
    const call = callsOf(round)?.find((c) => c.id === callId);
    if (!call) return null;
    const current = choicesOf(round);
    const choices = { ...current, [callId]: { ...choiceFor(call, current), ...patch } };
    set({ round, choices });
    return choices;
  }

  return {
    round: 0,
    choices: {},

    edit(round, callId, patch) {
      change(round, callId, patch);
    },

    decide(round, callId, decision) {
      const choices = change(round, callId, { decision });
      const calls = callsOf(round);
      if (choices && calls && allDecided(calls, choices)) get().submit(round);
    },

    decideAll(round, decision) {
      const calls = callsOf(round);
      if (!calls) return;
      void useChatStore.getState().answer(answersFor(calls, choicesOf(round), decision));
    },

    submit(round) {
      const calls = callsOf(round);
      if (!calls || !allDecided(calls, choicesOf(round))) return;
      void useChatStore.getState().answer(answersFor(calls, choicesOf(round)));
    },
  };
});
