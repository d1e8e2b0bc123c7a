// Reading a grounded answer (DESIGN §10): the model must return JSON `{answer, citations}`; every cited id
// must be one of the sources, every citation must appear inline as `[id]`, and the inline set must equal the
// array. Anything else is `bad_answer` — the answer is never shown half-checked. No citations at all is an
// uncited draft, which the UI labels as such. Pure.

import { AiFailure } from '../protocol/errors.ts';
import { redact } from '../protocol/redact.ts';
import { groundedBounds } from './bounds.ts';

export type Checked = { answer: string; citations: string[]; cited: boolean };

const bad = (detail: string) => new AiFailure('bad_answer', { providerDetail: redact(detail, []) });

/** The JSON object in the model's text; a ```json fence around it is tolerated, prose is not. */
function jsonOf(text: string): unknown {
  const fenced = /^\s*```(?:json)?\s*\n([\s\S]*?)\n\s*```\s*$/.exec(text);
  try {
    return JSON.parse(fenced ? (fenced[1] as string) : text);
  } catch {
    throw bad('The answer is not the JSON object that was asked for.');
  }
}

export function checkAnswer(text: string, sourceIds: readonly string[]): Checked {
  const parsed = jsonOf(text) as { answer?: unknown; citations?: unknown };
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw bad('The answer is not a JSON object.');
  }
  const { answer, citations } = parsed;
  if (typeof answer !== 'string' || answer.trim() === '') throw bad('The answer is empty.');
  if (Buffer.byteLength(answer, 'utf8') > groundedBounds.answerBytes) {
    throw bad(`The answer is over the ${groundedBounds.answerBytes / 1024} KiB an answer may hold.`);
  }
  const list = citations ?? [];
  if (!Array.isArray(list) || !list.every((c): c is string => typeof c === 'string')) {
    throw bad('The citations are not a list of source ids.');
  }
  if (new Set(list).size !== list.length) throw bad('A source is cited twice in the list.');
  const known = new Set(sourceIds);
  const unknown = list.find((id) => !known.has(id));
  if (unknown !== undefined)
    throw bad(`The answer cites "${unknown.slice(0, 20)}", which is not one of the sources.`);
  // Inline marks are `[id]` with a source-shaped id; other brackets in the prose are not citations.
  const inline = new Set([...answer.matchAll(/\[([A-Za-z0-9_-]{1,16})\]/g)].map((m) => m[1] as string));
  const inlineUnknown = [...inline].find((id) => !known.has(id));
  if (inlineUnknown !== undefined) {
    throw bad(`The answer cites [${inlineUnknown}] inline, which is not one of the sources.`);
  }
  const missingInline = list.find((id) => !inline.has(id));
  if (missingInline !== undefined)
    throw bad(`"${missingInline}" is in the citations but not cited in the text.`);
  const missingInList = [...inline].find((id) => !list.includes(id));
  if (missingInList !== undefined)
    throw bad(`[${missingInList}] is cited in the text but not in the citations.`);
  return { answer, citations: list, cited: list.length > 0 };
}
