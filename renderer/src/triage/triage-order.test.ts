import { describe, expect, test } from 'vitest';
import type { Question } from '../../../shared/judge.ts';
import { filterKey, filtersOf, isOrdered, noOrder, sortable } from './triage-order.ts';

const questions: Question[] = [
  { type: 'predicate', name: 'urgent', instructions: '' },
  {
    type: 'choice',
    name: 'team',
    instructions: '',
    choices: [{ value: 'billing' }, { value: true }, { value: 'true' }],
  },
  { type: 'score', name: 'frustration', instructions: '', levels: [{ label: 'calm' }, { label: 'angry' }] },
];

describe('triage order', () => {
  test('sorts by predicates and scores only', () => {
    expect(sortable(questions).map((q) => q.name)).toEqual(['urgent', 'frustration']);
  });

  test('offers a predicate’s yes and each choice value, keeping true and "true" apart', () => {
    const filters = filtersOf(questions);
    expect(filters.map((f) => f.label)).toEqual([
      'urgent: yes',
      'team: billing',
      'team: true',
      'team: “true”',
    ]);
    expect(filters.map((f) => f.filter.value)).toEqual([null, 'billing', true, 'true']);
    expect(new Set(filters.map((f) => f.key)).size).toBe(4);
    expect(filterKey(null)).toBe('');
  });

  test('is ordered while a sort or a filter is on', () => {
    expect(isOrdered(noOrder)).toBe(false);
    expect(isOrdered({ sortBy: 'urgent', filter: null })).toBe(true);
    expect(isOrdered({ sortBy: null, filter: { question: 'team', value: true } })).toBe(true);
  });
});
