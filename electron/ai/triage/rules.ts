// Rules (issue 6): "label Newsletter when P(is_newsletter) > 0.9", "move to Later when urgency < 1". A rule
// only suggests: `suggest` lists what each rule would do to which messages (the batch approval card), and
// `apply` carries out only what the user approved, as undoable writes queued for the mail server like any
// other (mail/store/undo.ts). Rules never send or delete: those effects always ask one by one (DESIGN §7).
import type { Answer } from '../../../shared/judge.ts';

export type RuleCondition =
  | { op: 'probability_at_least'; value: number }
  | { op: 'probability_below'; value: number }
  | { op: 'is'; value: string | boolean }
  | { op: 'score_at_least'; value: number }
  | { op: 'score_below'; value: number };
export type RuleAction =
  | { kind: 'label'; label: string }
  | { kind: 'move'; folder: string }
  | { kind: 'archive' }
  | { kind: 'mark_read' };
export type Rule = { question: string; when: RuleCondition; action: RuleAction };

/** Whether an answer meets a condition; a refusal or an answer of another type never does. Pure. */
export function meets(answer: Answer | undefined, when: RuleCondition): boolean {
  if (!answer) return false;
  switch (when.op) {
    case 'probability_at_least':
      return answer.type === 'predicate' && answer.probability >= when.value;
    case 'probability_below':
      return answer.type === 'predicate' && answer.probability < when.value;
    case 'is':
      return answer.type === 'choice' && answer.choice === when.value;
    case 'score_at_least':
      return answer.type === 'score' && answer.score >= when.value;
    case 'score_below':
      return answer.type === 'score' && answer.score < when.value;
  }
}

/** What the card says a rule does. */
export function describeAction(a: RuleAction): string {
  switch (a.kind) {
    case 'label':
      return `Label “${a.label}”`;
    case 'move':
      return `Move to “${a.folder}”`;
    case 'archive':
      return 'Archive';
    case 'mark_read':
      return 'Mark as read';
  }
}

/** For each rule, the messages whose answers meet it, in the order given. Pure. */
export function suggest(rules: readonly Rule[], answers: ReadonlyMap<number, readonly Answer[]>): number[][] {
  return rules.map((rule) => {
    const ids: number[] = [];
    for (const [messageId, list] of answers) {
      if (
        meets(
          list.find((a) => a.name === rule.question),
          rule.when,
        )
      )
        ids.push(messageId);
    }
    return ids;
  });
}
