import { useMemo } from 'react';
import { useTriageStore } from '../stores/triage-store.ts';
import { chipsFor } from './answer-chips.ts';

// A thread's triage answers as compact chips, the exact figures on hover. Nothing while it has none.
export function AnswerChips({ threadId }: { threadId: number }) {
  const found = useTriageStore((state) => state.answers.get(threadId));
  const questions = useTriageStore((state) => state.sets.find((s) => s.id === state.answersSetId)?.questions);
  const chips = useMemo(() => (found ? chipsFor(found, questions ?? []) : []), [found, questions]);
  if (chips.length === 0) return null;

  return (
    <span className="answer-chips" data-testid="answer-chips" data-certainty={found?.certainty}>
      {chips.map((chip) => (
        <span
          key={chip.name}
          className={
            chip.refused ? 'answer-chip refused' : chip.mark === false ? 'answer-chip no' : 'answer-chip'
          }
          data-testid="answer-chip"
          data-question={chip.name}
          title={chip.title}
        >
          {chip.mark !== null && <span aria-hidden="true">{chip.mark ? '● ' : '○ '}</span>}
          {chip.text}
        </span>
      ))}
    </span>
  );
}
