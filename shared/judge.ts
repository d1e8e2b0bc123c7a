// Judge questions and answers (DESIGN §9) as the bridge carries them, in the OpenAI Decisions shape
// (wire-formats §4.1, §4.3). The rules beyond the shape (limits, unique names, answers checked against their
// questions) are in electron/ai/judge/questions.ts, which runs before anything is sent or shown.
import { z } from 'zod';

// `"true"` and `true` are different values (wire-formats §4.1: "value is string or boolean and typed").
export const ChoiceValue = z.union([z.string(), z.boolean()]);
export type ChoiceValue = z.infer<typeof ChoiceValue>;

// Strict objects: a file written for System One (`criteria`, `noul`) or with a typo is named, not silently
// read as something else; a dropped `criteria` would change what is asked without a word.
const Described = { description: z.string().optional() };
const PredicateQuestion = z.strictObject({
  type: z.literal('predicate'),
  name: z.string(),
  instructions: z.string(),
});
export const ChoiceQuestion = z.strictObject({
  type: z.literal('choice'),
  name: z.string(),
  instructions: z.string(),
  choices: z.array(z.strictObject({ value: ChoiceValue, ...Described })),
});
export const ScoreQuestion = z.strictObject({
  type: z.literal('score'),
  name: z.string(),
  instructions: z.string(),
  // Ordered low → high; an answer's level is the index into this list, from 0.
  levels: z.array(z.strictObject({ label: z.string(), ...Described })),
});
export const Question = z.discriminatedUnion('type', [PredicateQuestion, ChoiceQuestion, ScoreQuestion]);
export type Question = z.infer<typeof Question>;

const Probability = z.number().min(0).max(1); // zod 4 refuses NaN and ±Infinity (JSON's 1e999) itself
const Name = z.string();

// An answer as Skimmer keeps and shows it. `confidence` is how concentrated the distribution is, not the
// chosen option's probability (wire-formats §4.3); `score` is the probability-weighted mean level index and
// may fall between levels. A refusal is the service declining one question, never a failure of the rest.
export const Answer = z.discriminatedUnion('type', [
  z.object({ type: z.literal('predicate'), name: Name, probability: Probability }),
  z.object({
    type: z.literal('choice'),
    name: Name,
    choice: ChoiceValue,
    confidence: Probability.optional(),
    probabilities: z.array(z.object({ value: ChoiceValue, probability: Probability })).optional(),
  }),
  z.object({
    type: z.literal('score'),
    name: Name,
    score: z.number().min(0),
    confidence: Probability.optional(),
    probabilities: z
      .array(z.object({ value: z.number().int().min(0), label: z.string(), probability: Probability }))
      .optional(),
  }),
  z.object({ type: z.literal('refusal'), name: Name }),
]);
export type Answer = z.infer<typeof Answer>;
