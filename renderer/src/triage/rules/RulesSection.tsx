import { useEffect } from 'react';
import type { QuestionSetView } from '../../../../shared/contract/index.ts';
import { useRulesStore } from '../../stores/rules-store.ts';
import { RuleCard } from './RuleCard.tsx';
import { RuleForm } from './RuleForm.tsx';
import { actionText, conditionText } from './rule-draft.ts';

// Rules for the chosen set (DESIGN §9, issues 6 and 17): Preview reads answers already cached for the mail picked
// above (the scope) and asks no model; the card lists what each rule would change there and waits for the
// user's approval before anything is applied.
export function RulesSection({ set }: { set: QuestionSetView }) {
  const load = useRulesStore((state) => state.load);
  const rules = useRulesStore((state) => state.rules);
  const remove = useRulesStore((state) => state.remove);
  const suggest = useRulesStore((state) => state.suggest);
  const busy = useRulesStore((state) => state.busy);
  const card = useRulesStore((state) => state.card);
  const error = useRulesStore((state) => state.error);
  const applied = useRulesStore((state) => state.applied);
  useEffect(() => load(set.id), [load, set.id]);

  return (
    <section className="triage-rules" data-testid="triage-rules">
      <h3>Rules</h3>
      {rules.length > 0 && (
        <ul className="rule-list">
          {rules.map((rule, index) => (
            // Rules have no identity but their place; the list only changes by Add and Remove.
            // biome-ignore lint/suspicious/noArrayIndexKey: see above
            <li key={index} data-testid="rule">
              <span>{`${conditionText(rule.question, rule.when)} → ${actionText(rule.action)}`}</span>
              <button type="button" className="ghost" data-testid="rule-remove" onClick={() => remove(index)}>
                Remove
              </button>
            </li>
          ))}
        </ul>
      )}
      <RuleForm key={set.id} questions={set.questions} />
      {!card && (
        <button
          type="button"
          data-testid="rule-suggest"
          disabled={busy || rules.length === 0}
          title="What these rules would change in the mail picked above; nothing changes before Apply now"
          onClick={() => void suggest()}
        >
          Preview changes
        </button>
      )}
      <RuleCard />
      {applied !== null && (
        <p className="muted" role="status" data-testid="rule-applied">
          {`Applied to ${applied} ${applied === 1 ? 'message' : 'messages'}`}
        </p>
      )}
      {error && (
        <p className="hint-problem" role="alert" data-testid="rule-error">
          {error}
        </p>
      )}
    </section>
  );
}
