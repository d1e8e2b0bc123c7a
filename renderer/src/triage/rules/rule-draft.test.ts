import { describe, expect, test } from 'vitest';
import { choiceFromKey, choiceKey, firstCondition, opsFor, readRules, validRule } from './rule-draft.ts';

const rule = {
  question: 'urgent',
  when: { op: 'probability_at_least', value: 0.9 },
  action: { kind: 'label', label: 'Urgent' },
};

describe('rule drafts', () => {
  test('offers only the conditions a question type can meet', () => {
    expect(opsFor({ type: 'choice', name: 't', instructions: '', choices: [] }).map((o) => o.op)).toEqual([
      'is',
    ]);
    expect(
      firstCondition({
        type: 'score',
        name: 's',
        instructions: '',
        levels: [{ label: 'a' }, { label: 'b' }],
      }),
    ).toEqual({ op: 'score_at_least', value: 1 });
  });

  test('keeps "true" and true apart in a choice select', () => {
    expect(choiceFromKey(choiceKey(true))).toBe(true);
    expect(choiceFromKey(choiceKey('true'))).toBe('true');
  });

  test('reads stored rules and drops what no longer reads as a rule', () => {
    expect(readRules(JSON.stringify([rule, { question: 'x', when: { op: 'send' } }]))).toEqual([rule]);
    expect(readRules('not json')).toEqual([]);
    expect(readRules(null)).toEqual([]);
  });

  test('refuses a rule its question cannot meet or the contract would refuse', () => {
    const urgent = { type: 'predicate', name: 'urgent', instructions: '' } as const;
    const label = { kind: 'label', label: 'Urgent' } as const;
    expect(validRule(urgent, { op: 'probability_at_least', value: 0.9 }, label)).toEqual(rule);
    expect(validRule(urgent, { op: 'probability_at_least', value: 1.5 }, label)).toBeNull();
    expect(validRule(urgent, { op: 'is', value: 'yes' }, label)).toBeNull();
    expect(validRule(urgent, { op: 'probability_below', value: 0.2 }, null)).toBeNull();
  });
});
