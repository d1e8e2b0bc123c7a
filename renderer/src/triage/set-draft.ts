// A question set as the editor holds it: each question's choices or levels as lines of text, "value" or
// "value — description". Skimmer's main process checks the rules (unique names, 2–255 unique choices, 2–10
// levels) and answers a refusal with its own sentence; this file only converts. Pure; tested in
// set-draft.test.ts.
import type { QuestionSetView, Request } from '../../../shared/contract/index.ts';
import type { Question } from '../../../shared/judge.ts';

export type QuestionType = Question['type'];
export type QuestionDraft = {
  key: number;
  type: QuestionType;
  name: string;
  instructions: string;
  // Choices or levels, one a line; unused by a predicate.
  lines: string;
  // Choice values that were booleans: `true` and `"true"` differ (wire-formats §4.1), so a boolean stays one.
  booleans: readonly string[];
};
export type SetDraft = { id: number | null; name: string; questions: QuestionDraft[] };

const separator = ' — ';
let nextKey = 1;

const line = (value: string, description: string | undefined): string =>
  description ? `${value}${separator}${description}` : value;

function splitLine(text: string): { head: string; description?: string } {
  const at = text.indexOf(separator);
  if (at === -1) return { head: text.trim() };
  const description = text.slice(at + separator.length).trim();
  return { head: text.slice(0, at).trim(), ...(description ? { description } : {}) };
}

export function newQuestion(type: QuestionType): QuestionDraft {
  const lines = type === 'choice' ? 'yes\nno' : type === 'score' ? 'Low\nMedium\nHigh' : '';
  return { key: nextKey++, type, name: '', instructions: '', lines, booleans: [] };
}

export function draftOf(set: QuestionSetView | null): SetDraft {
  if (!set) return { id: null, name: '', questions: [newQuestion('predicate')] };
  return {
    id: set.id,
    name: set.name,
    questions: set.questions.map((q) => ({
      key: nextKey++,
      type: q.type,
      name: q.name,
      instructions: q.instructions,
      lines:
        q.type === 'choice'
          ? q.choices.map((c) => line(String(c.value), c.description)).join('\n')
          : q.type === 'score'
            ? q.levels.map((l) => line(l.label, l.description)).join('\n')
            : '',
      booleans:
        q.type === 'choice'
          ? q.choices.filter((c) => typeof c.value === 'boolean').map((c) => String(c.value))
          : [],
    })),
  };
}

function questionOf(d: QuestionDraft): Question {
  const base = { name: d.name.trim(), instructions: d.instructions.trim() };
  if (d.type === 'predicate') return { type: 'predicate', ...base };
  const rows = d.lines
    .split(/\r?\n/)
    .filter((text) => text.trim() !== '')
    .map(splitLine);
  if (d.type === 'score') {
    return {
      type: 'score',
      ...base,
      levels: rows.map(({ head, description }) => ({ label: head, ...(description ? { description } : {}) })),
    };
  }
  return {
    type: 'choice',
    ...base,
    choices: rows.map(({ head, description }) => ({
      value: d.booleans.includes(head) ? head === 'true' : head,
      ...(description ? { description } : {}),
    })),
  };
}

export function requestOf(draft: SetDraft): Request<'judge:saveSet'> {
  return {
    ...(draft.id === null ? {} : { id: draft.id }),
    name: draft.name.trim(),
    questions: draft.questions.map(questionOf),
  };
}
