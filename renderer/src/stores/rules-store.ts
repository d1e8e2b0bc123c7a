// Rules (DESIGN §9, issue 6): the rules of the selected question set, kept in localStorage per set, and the
// batch approval card. Suggest reads only cached answers (it contacts nothing); Approve sends exactly the
// messages left checked, and the Undo bar then offers the writes, as the user's own change.
import { create } from 'zustand';
import type { Response, TriageRule, TriageScope } from '../../../shared/contract/index.ts';
import { bridge } from '../bridge.ts';
import { readRules, storageKey } from '../triage/rules/rule-draft.ts';
import { scopeOf, useTriageStore } from './triage-store.ts';
import { useUndoStore } from './undo-store.ts';

type RuleSuggestion = Response<'triage:suggest'>[number];

type RulesState = {
  setId: number | null;
  rules: TriageRule[];
  // The card; null: no card shown.
  card: RuleSuggestion[] | null;
  // "rule:messageId" of the messages unchecked on the card; all are checked at first.
  unchecked: ReadonlySet<string>;
  busy: boolean;
  error: string | null;
  applied: number | null;

  load(setId: number | null): void;
  add(rule: TriageRule): void;
  remove(index: number): void;
  suggest(): Promise<void>;
  toggle(rule: number, messageId: number): void;
  approve(): Promise<void>;
  cancel(): void;
};

export const checkKey = (rule: number, messageId: number): string => `${rule}:${messageId}`;

function save(setId: number, rules: readonly TriageRule[]): void {
  try {
    localStorage.setItem(storageKey(setId), JSON.stringify(rules));
  } catch {
    // A full or disabled storage only loses the rules at reload; the card still works.
  }
}

function readStored(setId: number): TriageRule[] {
  try {
    return readRules(localStorage.getItem(storageKey(setId)));
  } catch {
    return [];
  }
}

export const useRulesStore = create<RulesState>()((set, get) => {
  // The card's rules and messages as suggested: Approve sends these, so an edit or another scope picked after
  // Suggest cannot change what the card applies to.
  let suggested: { rules: TriageRule[]; scope: TriageScope } | null = null;

  function setRules(rules: TriageRule[]): void {
    const { setId } = get();
    if (setId === null) return;
    save(setId, rules);
    set({ rules, card: null, applied: null, error: null });
  }

  return {
    setId: null,
    rules: [],
    card: null,
    unchecked: new Set(),
    busy: false,
    error: null,
    applied: null,

    load(setId) {
      if (setId === get().setId) return;
      set({
        setId,
        rules: setId === null ? [] : readStored(setId),
        card: null,
        unchecked: new Set(),
        // A Suggest still running for the set before returns to nothing (it checks the set), so no wait.
        busy: false,
        error: null,
        applied: null,
      });
    },

    add(rule) {
      setRules([...get().rules, rule]);
    },

    remove(index) {
      setRules(get().rules.filter((_, i) => i !== index));
    },

    async suggest() {
      const { setId, rules } = get();
      const scope = scopeOf(useTriageStore.getState().scopeKind);
      if (setId === null || rules.length === 0) return;
      if (!scope) {
        set({ error: 'Pick the messages first: this folder, this search or all mail.' });
        return;
      }
      set({ busy: true, error: null, applied: null });
      const sent = [...rules];
      const reply = await bridge['triage:suggest']({ setId, scope, rules: sent });
      if (get().setId !== setId) return;
      if (!reply.ok) {
        set({ busy: false, error: reply.error.message });
        return;
      }
      suggested = { rules: sent, scope };
      set({ busy: false, card: reply.value, unchecked: new Set() });
    },

    toggle(rule, messageId) {
      const key = checkKey(rule, messageId);
      const unchecked = new Set(get().unchecked);
      if (!unchecked.delete(key)) unchecked.add(key);
      set({ unchecked });
    },

    async approve() {
      const { setId, card, unchecked, busy } = get();
      if (setId === null || card === null || busy || !suggested) return;
      const { rules, scope } = suggested;
      const approve = card
        .map((s) => ({
          rule: s.rule,
          messageIds: s.messages.map((m) => m.id).filter((id) => !unchecked.has(checkKey(s.rule, id))),
        }))
        .filter((a) => a.messageIds.length > 0);
      if (approve.length === 0) {
        set({ card: null, applied: 0 });
        return;
      }
      set({ busy: true, error: null });
      let failure: string | null = null;
      let applied = 0;
      // Through the Undo bar's tracking, so the bar offers exactly these writes.
      await useUndoStore.getState().track(async () => {
        const reply = await bridge['triage:apply']({ setId, scope, rules, approve });
        if (reply.ok) applied = reply.value.applied;
        else failure = reply.error.message;
      });
      set(failure ? { busy: false, error: failure } : { busy: false, card: null, applied });
    },

    cancel() {
      set({ card: null, unchecked: new Set(), error: null });
    },
  };
});
