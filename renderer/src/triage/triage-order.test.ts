import { describe, expect, test } from 'vitest';
import type { ThreadSummary } from '../../../shared/contract/index.ts';
import { orderThreads } from './triage-order.ts';

const thread = (id: number) => ({ id }) as ThreadSummary;
const threads = [1, 2, 3, 4].map(thread);
const answers = new Map([
  [
    1,
    {
      answers: [
        { type: 'predicate', name: 'urgent', probability: 0.2 },
        { type: 'choice', name: 'team', choice: 'billing' },
        { type: 'score', name: 'frustration', score: 0.4 },
      ],
    },
  ],
  [
    2,
    {
      answers: [
        { type: 'predicate', name: 'urgent', probability: 0.9 },
        { type: 'choice', name: 'team', choice: 'other' },
        { type: 'refusal', name: 'frustration' },
      ],
    },
  ],
  [
    3,
    {
      answers: [
        { type: 'predicate', name: 'urgent', probability: 0.5 },
        { type: 'choice', name: 'team', choice: 'billing' },
        { type: 'score', name: 'frustration', score: 1.7 },
      ],
    },
  ],
]);
const ids = (list: ThreadSummary[]) => list.map((t) => t.id);

describe('ordering threads by their answers', () => {
  test('leaves out threads without answers and keeps the list order without a sort', () => {
    expect(ids(orderThreads(threads, answers, { sortBy: null, filter: null }))).toEqual([1, 2, 3]);
  });

  test('sorts by a predicate’s probability and by a score, a refusal last', () => {
    expect(ids(orderThreads(threads, answers, { sortBy: 'urgent', filter: null }))).toEqual([2, 3, 1]);
    expect(ids(orderThreads(threads, answers, { sortBy: 'frustration', filter: null }))).toEqual([3, 1, 2]);
  });

  test('filters by a predicate from one half and by a choice’s value', () => {
    const urgent = { question: 'urgent', value: null };
    expect(ids(orderThreads(threads, answers, { sortBy: null, filter: urgent }))).toEqual([2, 3]);
    const billing = { question: 'team', value: 'billing' };
    expect(ids(orderThreads(threads, answers, { sortBy: 'urgent', filter: billing }))).toEqual([3, 1]);
  });
});
