import { useMemo } from 'react';
import { useOrderedListStore } from '../stores/ordered-list-store.ts';
import { useTriageStore } from '../stores/triage-store.ts';
import { chipsFor, decisive } from './answer-chips.ts';

// A thread's decisive triage answers as chips, never cut off; every answer with its exact figures on hover.
// Nothing while it has none.
export function AnswerChips({ threadId }: { threadId: number }) {
  // The ordered list's rows bring their own answers (ordered-list-store.ts), for the set the dialog shows.
  const ordered = useOrderedListStore((state) => state.answers.get(threadId));
  const listed = useTriageStore((state) => state.answers.get(threadId));
  const found = ordered ?? listed;
  const questions = useTriageStore(
    (state) => state.sets.find((s) => s.id === (ordered ? state.setId : state.answersSetId))?.questions,
  );
  const { shown, rest } = useMemo(
    () => decisive(found ? chipsFor(found, questions ?? []) : []),
    [found, questions],
  );
  if (rest === '') return null;

  return (
    <span className="answer-chips" data-testid="answer-chips" data-certainty={found?.certainty} title={rest}>
      {shown.map((chip) => (
        <span
          key={chip.name}
          className="answer-chip"
          data-testid="answer-chip"
          data-question={chip.name}
          title={chip.title}
        >
          {chip.mark !== null && <span aria-hidden="true">● </span>}
          {chip.text}
        </span>
      ))}
      {shown.length === 0 && (
        <span className="answer-chip quiet" data-testid="answer-chip-none">
          no flags
        </span>
      )}
    </span>
  );
}
