import { describe, expect, test } from 'vitest';
import type { QuestionSetView } from '../../../shared/contract/index.ts';
import { draftOf, requestOf } from './set-draft.ts';

const set: QuestionSetView = {
  id: 7,
  name: 'Support',
  updatedAt: 0,
  newMail: null,
  questions: [
    { type: 'predicate', name: 'urgent', instructions: 'Within the hour?' },
    {
      type: 'choice',
      name: 'flag',
      instructions: 'Flag it?',
      choices: [{ value: true, description: 'Yes, flag it.' }, { value: 'false' }],
    },
    {
      type: 'score',
      name: 'frustration',
      instructions: 'How much?',
      levels: [{ label: 'Calm' }, { label: 'Angry', description: 'Threats.' }],
    },
  ],
};

describe('question set drafts', () => {
  test('a saved set comes back unchanged through the editor', () => {
    expect(requestOf(draftOf(set))).toEqual({ id: 7, name: 'Support', questions: set.questions });
  });

  test('choices and levels are lines, with an optional description after a dash', () => {
    const draft = draftOf(set);
    expect(draft.questions[1]?.lines).toBe('true — Yes, flag it.\nfalse');
    expect(draft.questions[2]?.lines).toBe('Calm\nAngry — Threats.');
  });

  test('a new set has no id and blank lines are dropped', () => {
    const draft = draftOf(null);
    draft.name = ' Mine ';
    draft.questions = [
      { key: 1, type: 'choice', name: 'team', instructions: 'Which?', lines: 'a\n\n b \n', booleans: [] },
    ];
    expect(requestOf(draft)).toEqual({
      name: 'Mine',
      questions: [
        { type: 'choice', name: 'team', instructions: 'Which?', choices: [{ value: 'a' }, { value: 'b' }] },
      ],
    });
  });
});
