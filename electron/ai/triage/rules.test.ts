import { describe, expect, test } from 'vitest';
import type { Answer } from '../../../shared/judge.ts';
import { describeAction, meets, suggest } from './rules.ts';

const p = (name: string, probability: number): Answer => ({ type: 'predicate', name, probability });
const c = (name: string, choice: string | boolean): Answer => ({ type: 'choice', name, choice });
const s = (name: string, score: number): Answer => ({ type: 'score', name, score });

describe('rules', () => {
  test.each([
    [p('news', 0.95), { op: 'probability_at_least', value: 0.9 }, true],
    [p('news', 0.9), { op: 'probability_at_least', value: 0.9 }, true],
    [p('news', 0.89), { op: 'probability_at_least', value: 0.9 }, false],
    [p('news', 0.1), { op: 'probability_below', value: 0.2 }, true],
    [c('team', 'billing'), { op: 'is', value: 'billing' }, true],
    [c('team', true), { op: 'is', value: 'true' }, false],
    [s('urgency', 0.5), { op: 'score_below', value: 1 }, true],
    [s('urgency', 3), { op: 'score_at_least', value: 3 }, true],
    [{ type: 'refusal', name: 'news' } as Answer, { op: 'probability_below', value: 1 }, false],
    [c('news', 'x'), { op: 'probability_at_least', value: 0 }, false],
  ] as const)('%j meets %j: %s', (answer, when, expected) => {
    expect(meets(answer, when)).toBe(expected);
  });

  test('lists, per rule, the messages whose answers meet it', () => {
    const answers = new Map<number, Answer[]>([
      [1, [p('news', 0.97), s('urgency', 0.2)]],
      [2, [p('news', 0.3), s('urgency', 3.4)]],
      [3, [p('news', 0.92), s('urgency', 2)]],
    ]);
    expect(
      suggest(
        [
          {
            question: 'news',
            when: { op: 'probability_at_least', value: 0.9 },
            action: { kind: 'label', label: 'Newsletter' },
          },
          {
            question: 'urgency',
            when: { op: 'score_below', value: 1 },
            action: { kind: 'move', folder: 'Later' },
          },
          {
            question: 'missing',
            when: { op: 'probability_at_least', value: 0 },
            action: { kind: 'archive' },
          },
        ],
        answers,
      ),
    ).toEqual([[1, 3], [1], []]);
    expect(describeAction({ kind: 'move', folder: 'Later' })).toBe('Move to “Later”');
  });
});
