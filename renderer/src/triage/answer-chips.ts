// What a thread's answers show as chips in the thread list (DESIGN §9, issue 6): a predicate as its name with
// a filled or empty mark, a choice as its value, a score as "urgency 2.3/4"; the exact figures on hover. A
// chat model answers yes/no only (certainty `binary`), so its 0 or 1 is said to be no probability at all.
// Pure; tested in answer-chips.test.ts.
import type { MessageAnswers } from '../../../shared/contract/index.ts';
import type { Answer as JudgeAnswer, Question as JudgeQuestion } from '../../../shared/judge.ts';

export type Chip = {
  name: string;
  text: string;
  title: string;
  // A predicate's mark: true when its probability is at least one half.
  mark: boolean | null;
  refused: boolean;
};

export const binaryNote = '(yes/no only: a chat model answered)';

const figure = (value: number): string => (Math.round(value * 100) / 100).toString();
const oneDecimal = (value: number): string => (Math.round(value * 10) / 10).toString();
const humanName = (name: string): string => name.replaceAll('_', ' ');

const isYes = (probability: number): boolean => probability >= 0.5;

function chipFor(answer: JudgeAnswer, question: JudgeQuestion | undefined): Chip {
  const name = humanName(answer.name);
  switch (answer.type) {
    case 'predicate':
      return {
        name: answer.name,
        text: name,
        title: `${name}: probability ${figure(answer.probability)}`,
        mark: isYes(answer.probability),
        refused: false,
      };
    case 'choice': {
      const chosen = answer.probabilities?.find((p) => p.value === answer.choice)?.probability;
      const value = String(answer.choice);
      return {
        name: answer.name,
        text: value,
        title:
          `${name}: ${value}` +
          (chosen === undefined ? '' : `, probability ${figure(chosen)}`) +
          (answer.confidence === undefined ? '' : `, confidence ${figure(answer.confidence)}`),
        mark: null,
        refused: false,
      };
    }
    case 'score': {
      const top = question?.type === 'score' ? question.levels.length - 1 : null;
      const level = question?.type === 'score' ? question.levels[Math.round(answer.score)]?.label : undefined;
      const scale = top === null ? oneDecimal(answer.score) : `${oneDecimal(answer.score)}/${top}`;
      return {
        name: answer.name,
        text: `${name} ${scale}`,
        title:
          `${name}: level ${figure(answer.score)}` +
          (top === null ? '' : ` of 0–${top}`) +
          (level === undefined ? '' : ` (nearest: ${level})`) +
          (answer.confidence === undefined ? '' : `, confidence ${figure(answer.confidence)}`),
        mark: null,
        refused: false,
      };
    }
    case 'refusal':
      return {
        name: answer.name,
        text: '—',
        title: `${name}: the model declined to answer`,
        mark: null,
        refused: true,
      };
  }
}

// One chip per answer, in the order of the set's questions; a binary answer says so on hover.
export function chipsFor(answers: MessageAnswers, questions: readonly JudgeQuestion[]): Chip[] {
  const byName = new Map(questions.map((q) => [q.name, q]));
  return answers.answers.map((answer) => {
    const chip = chipFor(answer, byName.get(answer.name));
    if (answers.certainty !== 'binary' || chip.refused) return chip;
    return { ...chip, title: `${chip.title} ${binaryNote}` };
  });
}

/**
 * What a row shows (issue 17): the decisive answers — a yes, a choice, a score — in full; a no and a refusal
 * only on hover, with every other answer, in `rest`.
 */
export function decisive(chips: readonly Chip[]): { shown: Chip[]; rest: string } {
  const shown = chips.filter((c) => !c.refused && c.mark !== false);
  return { shown, rest: chips.map((c) => c.title).join('\n') };
}
