// What the thread list can be sorted and filtered by (issues 6, 17): a set's predicates and scores to sort, its
// predicates (yes) and choice values to filter. The ordering itself is the main process's, over every
// conversation of the folder or view (judge:orderedThreads); the page reads it in windows
// (stores/ordered-list-store.ts). Pure; tested in triage-order.test.ts.
import type { TriageOrderFilter } from '../../../shared/contract/index.ts';
import type { Question } from '../../../shared/judge.ts';

// A filter is a predicate's name (kept when its probability is at least one half) or a choice and a value,
// typed as the question offers it ("true" and true are two values).
export type TriageFilter = TriageOrderFilter;
export type TriageOrder = { sortBy: string | null; filter: TriageFilter | null };

export const noOrder: TriageOrder = { sortBy: null, filter: null };
export const isOrdered = (order: TriageOrder): boolean => order.sortBy !== null || order.filter !== null;

// The questions a list can be sorted by: a predicate by its probability, a score by its level.
export const sortable = (questions: readonly Question[]): Question[] =>
  questions.filter((q) => q.type === 'predicate' || q.type === 'score');

// Every filter the set offers: each predicate, and each value of each choice; `key` tells them apart in a select.
export function filtersOf(
  questions: readonly Question[],
): { filter: TriageFilter; label: string; key: string }[] {
  return questions.flatMap((q): { filter: TriageFilter; label: string; key: string }[] => {
    if (q.type === 'predicate')
      return [
        {
          filter: { question: q.name, value: null },
          label: `${q.name}: yes`,
          key: filterKey({ question: q.name, value: null }),
        },
      ];
    if (q.type === 'choice')
      return q.choices.map((c) => {
        const filter = { question: q.name, value: c.value };
        // A boolean and the string it reads as would look alike: the string is quoted.
        const shown =
          typeof c.value === 'string' &&
          q.choices.some((o) => String(o.value) === c.value && o.value !== c.value)
            ? `“${c.value}”`
            : String(c.value);
        return { filter, label: `${q.name}: ${shown}`, key: filterKey(filter) };
      });
    return [];
  });
}

export const filterKey = (filter: TriageFilter | null): string =>
  filter === null ? '' : JSON.stringify(filter);
