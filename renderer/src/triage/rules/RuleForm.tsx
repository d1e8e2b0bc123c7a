import { useState } from 'react';
import type { Question } from '../../../../shared/judge.ts';
import { useRulesStore } from '../../stores/rules-store.ts';
import {
  type ActionKind,
  type Condition,
  type ConditionOp,
  choiceFromKey,
  choiceKey,
  firstCondition,
  opsFor,
  type RuleAction,
  validRule,
} from './rule-draft.ts';

const actionKinds: { kind: ActionKind; label: string }[] = [
  { kind: 'label', label: 'Label' },
  { kind: 'move', label: 'Move to folder' },
  { kind: 'archive', label: 'Archive' },
  { kind: 'mark_read', label: 'Mark read' },
];

function actionOf(kind: ActionKind, target: string): RuleAction | null {
  if (kind === 'label') return target ? { kind, label: target } : null;
  if (kind === 'move') return target ? { kind, folder: target } : null;
  return kind === 'archive' ? { kind } : { kind: 'mark_read' };
}

// One new rule: a question of the set, a condition its type allows, and a write (never send or delete,
// DESIGN §9). The draft is this form's own until Add hands it to the store.
export function RuleForm({ questions }: { questions: readonly Question[] }) {
  const add = useRulesStore((state) => state.add);
  const [name, setName] = useState(questions[0]?.name ?? '');
  const question = questions.find((q) => q.name === name) ?? questions[0];
  const [chosenWhen, setWhen] = useState<Condition | null>(question ? firstCondition(question) : null);
  const [kind, setKind] = useState<ActionKind>('label');
  const [target, setTarget] = useState('');
  if (!question || !chosenWhen) return null;
  // After an edit of the set the named question may be gone or of another type: start from its first condition.
  const when = opsFor(question).some((o) => o.op === chosenWhen.op) ? chosenWhen : firstCondition(question);

  const pickQuestion = (next: string) => {
    setName(next);
    const q = questions.find((each) => each.name === next);
    if (q) setWhen(firstCondition(q));
  };
  const setOp = (op: ConditionOp) => setWhen({ ...when, op } as Condition);
  const needsTarget = kind === 'label' || kind === 'move';
  const rule = validRule(question, when, actionOf(kind, target.trim()));
  const submit = () => {
    if (!rule) return;
    add(rule);
    setTarget('');
  };

  return (
    <div className="rule-form" data-testid="rule-form">
      <select
        aria-label="Question"
        data-testid="rule-question"
        value={question.name}
        onChange={(e) => pickQuestion(e.target.value)}
      >
        {questions.map((q) => (
          <option key={q.name} value={q.name}>
            {q.name}
          </option>
        ))}
      </select>
      <select
        aria-label="Condition"
        data-testid="rule-op"
        value={when.op}
        onChange={(e) => setOp(e.target.value as ConditionOp)}
      >
        {opsFor(question).map((o) => (
          <option key={o.op} value={o.op}>
            {o.label}
          </option>
        ))}
      </select>
      {question.type === 'choice' ? (
        <select
          aria-label="Value"
          data-testid="rule-value"
          value={choiceKey(when.value as string | boolean)}
          onChange={(e) => setWhen({ op: 'is', value: choiceFromKey(e.target.value) })}
        >
          {question.choices.map((c) => (
            <option key={choiceKey(c.value)} value={choiceKey(c.value)}>
              {String(c.value)}
            </option>
          ))}
        </select>
      ) : (
        <input
          type="number"
          aria-label="Value"
          data-testid="rule-value"
          min={0}
          max={question.type === 'predicate' ? 1 : question.levels.length - 1}
          step={question.type === 'predicate' ? 0.01 : 0.1}
          value={String(when.value)}
          onChange={(e) => setWhen({ ...when, value: Number(e.target.value) } as Condition)}
        />
      )}
      <span aria-hidden="true">→</span>
      <select
        aria-label="Action"
        data-testid="rule-action"
        value={kind}
        onChange={(e) => setKind(e.target.value as ActionKind)}
      >
        {actionKinds.map((a) => (
          <option key={a.kind} value={a.kind}>
            {a.label}
          </option>
        ))}
      </select>
      {needsTarget && (
        <input
          aria-label={kind === 'label' ? 'Label' : 'Folder'}
          data-testid="rule-target"
          placeholder={kind === 'label' ? 'Label' : 'Folder'}
          value={target}
          maxLength={kind === 'label' ? 64 : 200}
          onChange={(e) => setTarget(e.target.value)}
        />
      )}
      <button type="button" data-testid="rule-add" disabled={!rule} onClick={submit}>
        Add rule
      </button>
    </div>
  );
}
