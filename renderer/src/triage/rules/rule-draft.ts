// A rule as the form builds it (DESIGN §9, issue 6): the conditions a question's type allows, a sensible first
// condition for each, and the rules of a set as localStorage keeps them. Pure, so the form stays thin.
import { type TriageRule, TriageRule as TriageRuleSchema } from '../../../../shared/contract/index.ts';
import type { Question } from '../../../../shared/judge.ts';

export type Condition = TriageRule['when'];
export type ConditionOp = Condition['op'];
export type RuleAction = TriageRule['action'];
export type ActionKind = RuleAction['kind'];

// Only the comparisons an answer of that type can meet: the main process would never match the others.
export function opsFor(question: Question): { op: ConditionOp; label: string }[] {
  switch (question.type) {
    case 'predicate':
      return [
        { op: 'probability_at_least', label: 'probability at least' },
        { op: 'probability_below', label: 'probability below' },
      ];
    case 'choice':
      return [{ op: 'is', label: 'is' }];
    case 'score':
      return [
        { op: 'score_at_least', label: 'at least' },
        { op: 'score_below', label: 'below' },
      ];
  }
}

export function firstCondition(question: Question): Condition {
  switch (question.type) {
    case 'predicate':
      return { op: 'probability_at_least', value: 0.9 };
    case 'choice':
      return { op: 'is', value: question.choices[0]?.value ?? '' };
    case 'score':
      return { op: 'score_at_least', value: Math.max(0, question.levels.length - 1) };
  }
}

// What Add accepts: the contract's shape, and a value the question can reach (a probability up to 1, a score
// within its levels), so no rule is kept that the main process would refuse or that could never match.
export function validRule(question: Question, when: Condition, action: RuleAction | null): TriageRule | null {
  if (!action || !opsFor(question).some((o) => o.op === when.op)) return null;
  if (typeof when.value === 'number') {
    const top = question.type === 'score' ? question.levels.length : 1;
    if (!Number.isFinite(when.value) || when.value < 0 || when.value > top) return null;
  }
  const rule = TriageRuleSchema.safeParse({ question: question.name, when, action });
  return rule.success ? rule.data : null;
}

// A choice value in a <select>: `"true"` and `true` differ (wire-formats §4.1), so JSON keeps them apart.
export const choiceKey = (value: string | boolean): string => JSON.stringify(value);
export function choiceFromKey(key: string): string | boolean {
  const value: unknown = JSON.parse(key);
  return typeof value === 'boolean' ? value : String(value);
}

export function conditionText(question: string, when: Condition): string {
  switch (when.op) {
    case 'probability_at_least':
      return `${question} probability at least ${when.value}`;
    case 'probability_below':
      return `${question} probability below ${when.value}`;
    case 'is':
      return `${question} is ${String(when.value)}`;
    case 'score_at_least':
      return `${question} at least ${when.value}`;
    case 'score_below':
      return `${question} below ${when.value}`;
  }
}

export function actionText(action: RuleAction): string {
  switch (action.kind) {
    case 'label':
      return `label “${action.label}”`;
    case 'move':
      return `move to “${action.folder}”`;
    case 'archive':
      return 'archive';
    case 'mark_read':
      return 'mark read';
  }
}

// The rules are the user's own writing, kept in this browser per set; anything that no longer reads as a rule
// (an older shape, a hand edit) is dropped rather than sent.
export const storageKey = (setId: number): string => `skimmer.triage-rules.${setId}`;
export function readRules(stored: string | null): TriageRule[] {
  if (stored === null) return [];
  try {
    const parsed: unknown = JSON.parse(stored);
    if (!Array.isArray(parsed)) return [];
    return parsed.flatMap((raw) => {
      const rule = TriageRuleSchema.safeParse(raw);
      return rule.success ? [rule.data] : [];
    });
  } catch {
    return [];
  }
}
