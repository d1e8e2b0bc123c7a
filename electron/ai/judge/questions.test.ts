import { describe, expect, test } from 'vitest';
import { loadQuestionFile } from '../../../fixtures/judge/corpus.ts';
import { AiFailure } from '../protocol/errors.ts';
import {
  type Answer,
  canonicalJson,
  parseQuestionFile,
  type Question,
  questionHash,
  validateAnswers,
  validateQuestions,
} from './questions.ts';

const support = (() => {
  const parsed = parseQuestionFile(loadQuestionFile('support'));
  if (!parsed.ok) throw new Error(parsed.reason);
  return parsed.questions;
})();
const [urgent, , frustration] = support as [Question, Question, Question];

const predicate = (name: string, instructions = 'Is it urgent?'): Question => ({
  type: 'predicate',
  name,
  instructions,
});
const choice = (values: (string | boolean)[]): Question => ({
  type: 'choice',
  name: 'c',
  instructions: 'Pick one.',
  choices: values.map((value) => ({ value })),
});
const score = (labels: string[]): Question => ({
  type: 'score',
  name: 's',
  instructions: 'How much?',
  levels: labels.map((label) => ({ label })),
});
const levels = (n: number) => Array.from({ length: n }, (_, i) => `L${i}`);
const values = (n: number) => Array.from({ length: n }, (_, i) => `v${i}`);

describe('validateQuestions', () => {
  const refused = (questions: Question[], reason: string) => {
    const checked = validateQuestions(questions);
    expect(checked.ok).toBe(false);
    if (!checked.ok) expect(checked.reason).toContain(reason);
  };

  test('accepts the support set', () => {
    expect(validateQuestions(support)).toEqual({ ok: true });
  });

  // Names the real Decisions API answered; neither service documents an alphabet or a length for names.
  test.each([
    ['a dot and capitals', 'Ticket.urgent'],
    ['a dot', 'customer.vip'],
    ['a space', 'is urgent'],
    ['an accent', 'café'],
    ['an emoji', '📎 attachment'],
    ['500 characters', 'n'.repeat(500)],
  ])('accepts a name with %s', (_what, name) => {
    expect(validateQuestions([predicate(name)])).toEqual({ ok: true });
  });

  // Nothing in either API bounds these: the service answers or refuses them itself.
  test('accepts 1,000 questions, 20,000 characters of instructions and none at all', () => {
    expect(validateQuestions(Array.from({ length: 1000 }, (_, i) => predicate(`q${i}`)))).toEqual({
      ok: true,
    });
    expect(validateQuestions([predicate('a', 'x'.repeat(20_000))])).toEqual({ ok: true });
    expect(validateQuestions([predicate('a', '')])).toEqual({ ok: true });
  });

  test('accepts an empty choice value and an empty level label, as both APIs do', () => {
    expect(validateQuestions([choice(['', 'a'])])).toEqual({ ok: true });
    expect(validateQuestions([score(['', 'high'])])).toEqual({ ok: true });
  });

  test('the text "true" and the boolean true are two different choices', () => {
    expect(validateQuestions([choice(['true', true, false, 'false'])])).toEqual({ ok: true });
  });

  // Each documented limit at its bound: n is asked, one past it is refused with a sentence.
  test('at least one question: one is asked, none is refused', () => {
    expect(validateQuestions([predicate('a')])).toEqual({ ok: true });
    refused([], 'Ask at least one question.');
  });

  test('at least 2 choices: 2 are asked, 1 is refused', () => {
    expect(validateQuestions([choice(values(2))])).toEqual({ ok: true });
    refused([choice(values(1))], 'needs between 2 and 255 choices; it has 1');
  });

  test('at most 255 choices: 255 are asked, 256 are refused', () => {
    expect(validateQuestions([choice(values(255))])).toEqual({ ok: true });
    refused([choice(values(256))], 'needs between 2 and 255 choices; it has 256');
  });

  test('at least 2 levels: 2 are asked, 1 is refused', () => {
    expect(validateQuestions([score(levels(2))])).toEqual({ ok: true });
    refused([score(levels(1))], 'needs between 2 and 10 levels; it has 1');
  });

  test('at most 10 levels: 10 are asked, 11 are refused', () => {
    expect(validateQuestions([score(levels(10))])).toEqual({ ok: true });
    refused([score(levels(11))], 'needs between 2 and 10 levels; it has 11');
  });

  test('unique names: "a" and "A" are asked, "a" twice is refused', () => {
    expect(validateQuestions([predicate('a'), predicate('A')])).toEqual({ ok: true });
    refused([predicate('a'), predicate('b'), predicate('a')], 'Two questions are named "a"');
  });

  test('unique choices: each value once is asked, a value twice is refused', () => {
    refused([choice(['a', 'b', 'a'])], 'offers the choice "a" twice');
    refused([choice([true, false, true])], 'offers the choice true twice');
  });

  test('a question has a name: an empty one is refused', () => {
    refused([predicate('')], 'Question 1 has no name.');
  });
});

describe('parseQuestionFile', () => {
  test('reads a bare questions array and an object with a questions list', () => {
    expect(parseQuestionFile(loadQuestionFile('support'))).toMatchObject({ ok: true });
    expect(parseQuestionFile(loadQuestionFile('typed'))).toMatchObject({
      ok: true,
      questions: [
        { name: 'needs_reply', choices: [{ value: true }, { value: false }] },
        { name: 'newsletter' },
      ],
    });
  });

  test('a whole Decisions request body is a question file; its other fields are ignored', () => {
    const body = { model: 'gpt-6-luna', input: 'mail', safety_identifier: 'u', questions: [predicate('a')] };
    expect(parseQuestionFile(body)).toEqual({ ok: true, questions: [predicate('a')] });
  });

  test.each([
    ['a string', 'urgent?', 'A question file is a list of questions'],
    ['null', null, 'A question file is a list of questions'],
    [
      'a System One question (criteria)',
      [{ type: 'predicate', name: 'a', instructions: 'x', criteria: { true: 'y' } }],
      'Question 1 is not valid: Unrecognized key: "criteria"',
    ],
    [
      'the System One type name',
      [{ type: 'noul', name: 'a', instructions: 'x' }],
      'Question 1 is not valid (type)',
    ],
    [
      'a question without a name',
      [predicate('a'), { type: 'predicate', instructions: 'x' }],
      'Question 2 is not valid (name)',
    ],
    [
      'a number as a choice value',
      [{ type: 'choice', name: 'c', instructions: 'x', choices: [{ value: 1 }, { value: 'b' }] }],
      'Question 1 is not valid (choices.0.value)',
    ],
    ['questions that break a rule', [predicate('a'), predicate('a')], 'Two questions are named "a"'],
  ])('refuses %s with a sentence', (_name, json, reason) => {
    const parsed = parseQuestionFile(json);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.reason).toContain(reason);
  });

  test('names the problem without echoing what was written', () => {
    const parsed = parseQuestionFile([
      { type: 'predicate', name: 'a', instructions: 42, secret: 'SECRET-9' },
    ]);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.reason).not.toContain('SECRET-9');
  });
});

describe('questionHash', () => {
  test('is pinned: the same question hashes the same in every version of Skimmer', () => {
    // Checked outside Skimmer: printf '%s' '<the JSON below>' | sha256sum
    expect(canonicalJson(urgent)).toBe(
      '{"instructions":"The sender needs a reply within the hour.","name":"urgent","type":"predicate"}',
    );
    expect(questionHash(urgent)).toBe('9d0b27ee62ded9c9688434e7d8c8b21943e2419f528a1fb0b643a68cee42395b');
  });

  test('ignores key order and absent descriptions', () => {
    const reordered = {
      levels: [
        { description: 'States facts.', label: 'Calm' },
        { label: 'Annoyed', description: undefined },
        { description: 'Strong language or threats to leave.', label: 'Angry' },
      ],
      instructions: 'How frustrated is the sender?',
      name: 'frustration',
      type: 'score',
    } as Question;
    expect(questionHash(reordered)).toBe(questionHash(frustration));
  });

  test.each([
    ['the instructions', urgent, { ...urgent, instructions: 'The sender needs a reply today.' }],
    ['the name', urgent, { ...urgent, name: 'urgent2' }],
    ['the type of a choice value', choice([true, false]), choice(['true', 'false'])],
    ['the order of levels', score(['Low', 'High']), score(['High', 'Low'])],
    [
      'a description',
      choice(['a', 'b']),
      { ...choice(['a', 'b']), choices: [{ value: 'a', description: 'x' }, { value: 'b' }] },
    ],
  ] as [string, Question, Question][])('changes with %s', (_name, before, after) => {
    expect(questionHash(after)).not.toBe(questionHash(before));
  });
});

describe('validateAnswers', () => {
  const p = (probability: unknown) => ({ type: 'predicate', name: 'urgent', probability });
  const c = (extra: Record<string, unknown> = {}) => ({
    type: 'choice',
    name: 'team',
    choice: 'billing',
    ...extra,
  });
  const s = (extra: Record<string, unknown> = {}) => ({
    type: 'score',
    name: 'frustration',
    score: 1,
    ...extra,
  });

  function bad(answers: unknown[], missing?: 'refusal' | 'bad_answer'): AiFailure {
    try {
      validateAnswers(support, answers, missing ? { missing } : {});
    } catch (e) {
      if (e instanceof AiFailure) return e;
      throw e;
    }
    throw new Error('expected bad_answer');
  }

  test('returns the answers in question order, whatever order they came in', () => {
    expect(validateAnswers(support, [s(), p(0.5), c()]).map((a) => a.name)).toEqual([
      'urgent',
      'team',
      'frustration',
    ]);
  });

  test('accepts the bounds: probabilities 0 and 1, scores 0 and levels − 1', () => {
    expect(validateAnswers(support, [p(0), c({ confidence: 1 }), s({ score: 0 })])).toHaveLength(3);
    expect(validateAnswers(support, [p(1), c({ confidence: 0 }), s({ score: 2 })])).toHaveLength(3);
  });

  test('drops unknown fields and null optionals, and takes level labels from the question', () => {
    const answers = validateAnswers(support, [
      { ...p(0.5), confidence: 0.3, extra: 'x' },
      c({ confidence: null, probabilities: null }),
      s({ probabilities: [{ value: 2, label: 'Furious', probability: 1 }] }),
    ]);
    expect(answers).toEqual<Answer[]>([
      { type: 'predicate', name: 'urgent', probability: 0.5 },
      { type: 'choice', name: 'team', choice: 'billing' },
      {
        type: 'score',
        name: 'frustration',
        score: 1,
        probabilities: [{ value: 2, label: 'Angry', probability: 1 }],
      },
    ]);
  });

  test('a missing answer is a refusal only when the format says so', () => {
    expect(validateAnswers(support, [p(0.5)], { missing: 'refusal' })).toEqual([
      { type: 'predicate', name: 'urgent', probability: 0.5 },
      { type: 'refusal', name: 'team' },
      { type: 'refusal', name: 'frustration' },
    ]);
    expect(bad([p(0.5), c()]).providerDetail).toBe('"frustration" was not answered');
  });

  test.each([
    ['a probability above 1', [p(1.2), c(), s()]],
    ['a negative probability', [p(-0.1), c(), s()]],
    ['NaN', [p(Number.NaN), c(), s()]],
    ['Infinity', [p(Number.POSITIVE_INFINITY), c(), s()]],
    ['the string "NaN"', [p('NaN'), c(), s()]],
    ['a boolean probability', [p(true), c(), s()]],
    ['a confidence above 1', [p(0.5), c({ confidence: 1.01 }), s()]],
    ['an unknown choice', [p(0.5), c({ choice: 'sales' }), s()]],
    ['a choice of the wrong type', [p(0.5), c({ choice: 1 }), s()]],
    [
      'probabilities of an unknown option',
      [p(0.5), c({ probabilities: [{ value: 'x', probability: 1 }] }), s()],
    ],
    ['a score above the top level', [p(0.5), c(), s({ score: 2.0001 })]],
    ['a level below 0', [p(0.5), c(), s({ probabilities: [{ value: -1, probability: 1 }] })]],
    ['an answer type this check does not know', [p(0.5), c(), s(), { type: 'box', name: 'urgent' }]],
    ['a refusal of a question not asked', [p(0.5), c(), s(), { type: 'refusal', name: 'priority' }]],
    ['a name that is not a string', [p(0.5), c(), s(), { type: 'refusal', name: 7 }]],
    ['a refusal and an answer for one question', [p(0.5), c(), s(), { type: 'refusal', name: 'team' }]],
  ])('refuses %s as bad_answer', (_name, answers) => {
    expect(bad(answers).code).toBe('bad_answer');
  });

  test('the detail never carries the value the service sent', () => {
    expect(bad([p(0.5), c({ choice: 'SECRET-OPTION-42' }), s()]).providerDetail).not.toContain('SECRET');
  });

  test('the detail is redacted like any provider text', () => {
    const named: Question[] = [predicate('sk-test-canary-judge-0011')];
    try {
      validateAnswers(named, []);
      throw new Error('expected bad_answer');
    } catch (e) {
      expect((e as AiFailure).providerDetail).toBe('"[redacted]" was not answered');
    }
  });
});
