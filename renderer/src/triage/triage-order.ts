// Sorting and filtering the thread list by triage answers (issue 6). Only threads that are loaded and have
// answers take part: the list is fetched in windows, so "the highest urgency" means among those, and the UI
// says so. Pure; tested in triage-order.test.ts.
import type { ThreadSummary } from '../../../shared/contract/index.ts';
import type { Question } from '../../../shared/judge.ts';
import { isYes } from './answer-chips.ts';

type Answers = { answers: readonly { type: string; name: string; [key: string]: unknown }[] };

// A filter is a predicate's name (kept when its probability is at least one half) or a choice and a value.
export type TriageFilter = { question: string; value: string | null };
export type TriageOrder = { sortBy: string | null; filter: TriageFilter | null };

export const noOrder: TriageOrder = { sortBy: null, filter: null };
export const isOrdered = (order: TriageOrder): boolean => order.sortBy !== null || order.filter !== null;

// The questions a list can be sorted by: a predicate by its probability, a score by its level.
export const sortable = (questions: readonly Question[]): Question[] =>
  questions.filter((q) => q.type === 'predicate' || q.type === 'score');

// Every filter the set offers: each predicate, and each value of each choice.
export function filtersOf(questions: readonly Question[]): { filter: TriageFilter; label: string }[] {
  return questions.flatMap((q): { filter: TriageFilter; label: string }[] => {
    if (q.type === 'predicate')
      return [{ filter: { question: q.name, value: null }, label: `${q.name}: yes` }];
    if (q.type === 'choice')
      return q.choices.map((c) => ({
        filter: { question: q.name, value: String(c.value) },
        label: `${q.name}: ${String(c.value)}`,
      }));
    return [];
  });
}

function figureOf(found: Answers, name: string): number | null {
  const answer = found.answers.find((a) => a.name === name);
  if (answer?.type === 'predicate' && typeof answer.probability === 'number') return answer.probability;
  if (answer?.type === 'score' && typeof answer.score === 'number') return answer.score;
  return null;
}

function passes(found: Answers, filter: TriageFilter): boolean {
  const answer = found.answers.find((a) => a.name === filter.question);
  if (answer?.type === 'predicate')
    return typeof answer.probability === 'number' && isYes(answer.probability);
  if (answer?.type === 'choice') return String(answer.choice) === filter.value;
  return false;
}

// The loaded threads with answers that pass the filter, highest first by the sort question (a refusal last);
// equal figures keep the list's own order (newest first).
export function orderThreads(
  threads: readonly ThreadSummary[],
  answers: ReadonlyMap<number, Answers>,
  order: TriageOrder,
): ThreadSummary[] {
  const kept = threads.filter((t) => {
    const found = answers.get(t.id);
    return found !== undefined && (order.filter === null || passes(found, order.filter));
  });
  const { sortBy } = order;
  if (sortBy === null) return kept;
  const key = new Map(kept.map((t) => [t.id, figureOf(answers.get(t.id) as Answers, sortBy) ?? -1]));
  return kept
    .map((t, i) => ({ t, i }))
    .sort((a, b) => (key.get(b.t.id) ?? -1) - (key.get(a.t.id) ?? -1) || a.i - b.i)
    .map(({ t }) => t);
}
