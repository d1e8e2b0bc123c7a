import { describe, expect, test } from 'vitest';
import type { MessageAnswers } from '../../../shared/contract/index.ts';
import type { Question } from '../../../shared/judge.ts';
import { binaryNote, chipsFor, decisive } from './answer-chips.ts';

const questions: Question[] = [
  { type: 'predicate', name: 'needs_reply', instructions: 'Does it need a reply?' },
  {
    type: 'choice',
    name: 'team',
    instructions: 'Which team?',
    choices: [{ value: 'billing' }, { value: 'other' }],
  },
  {
    type: 'score',
    name: 'frustration',
    instructions: 'How frustrated?',
    levels: [{ label: 'Calm' }, { label: 'Annoyed' }, { label: 'Angry' }],
  },
];

const answered = (
  answers: MessageAnswers['answers'],
  certainty: MessageAnswers['certainty'] = 'probabilities',
) => ({ messageId: 1, model: 'dec/m', certainty, answers }) satisfies MessageAnswers;

describe('answer chips', () => {
  test('a predicate shows its name with a filled mark from one half, the probability on hover', () => {
    const [yes] = chipsFor(
      answered([{ type: 'predicate', name: 'needs_reply', probability: 0.5 }]),
      questions,
    );
    expect(yes).toMatchObject({ text: 'needs reply', mark: true, title: 'needs reply: probability 0.5' });
    const [no] = chipsFor(
      answered([{ type: 'predicate', name: 'needs_reply', probability: 0.49 }]),
      questions,
    );
    expect(no?.mark).toBe(false);
  });

  test('a choice shows its value and a score its level out of the top level', () => {
    const chips = chipsFor(
      answered([
        {
          type: 'choice',
          name: 'team',
          choice: 'billing',
          probabilities: [{ value: 'billing', probability: 0.94 }],
        },
        { type: 'score', name: 'frustration', score: 1.74 },
      ]),
      questions,
    );
    expect(chips.map((c) => c.text)).toEqual(['billing', 'frustration 1.7/2']);
    expect(chips[0]?.title).toBe('team: billing, probability 0.94');
    expect(chips[1]?.title).toBe('frustration: level 1.74 of 0–2 (nearest: Angry)');
  });

  test('a chat model’s answers say they are yes/no only', () => {
    const [chip] = chipsFor(
      answered([{ type: 'predicate', name: 'needs_reply', probability: 1 }], 'binary'),
      questions,
    );
    expect(chip?.title).toBe(`needs reply: probability 1 ${binaryNote}`);
  });

  test('a refusal shows a muted dash', () => {
    const [chip] = chipsFor(answered([{ type: 'refusal', name: 'team' }]), questions);
    expect(chip).toMatchObject({ text: '—', refused: true });
  });
});

describe('decisive chips', () => {
  const chips = (answers: MessageAnswers['answers']) =>
    decisive(
      chipsFor(
        { messageId: 1, model: 'dec/m', certainty: 'probabilities', answers } as MessageAnswers,
        questions,
      ),
    );

  test('show a yes, a choice and a score, and keep a no and a refusal for the hover', () => {
    const { shown, rest } = chips([
      { type: 'predicate', name: 'needs_reply', probability: 0.2 },
      { type: 'choice', name: 'team', choice: 'billing' },
      { type: 'score', name: 'frustration', score: 1.7 },
    ] as MessageAnswers['answers']);
    expect(shown.map((c) => c.name)).toEqual(['team', 'frustration']);
    expect(rest.split('\n')).toEqual([
      'needs reply: probability 0.2',
      'team: billing',
      'frustration: level 1.7 of 0–2 (nearest: Angry)',
    ]);
  });

  test('show a predicate that is a yes', () => {
    const { shown } = chips([
      { type: 'predicate', name: 'needs_reply', probability: 0.8 },
    ] as MessageAnswers['answers']);
    expect(shown.map((c) => c.text)).toEqual(['needs reply']);
  });
});
