// The grounded-answer cache against a real SQLite file: an answer is found again under the key of what it was
// asked over, whatever order the ids were named in, and reads back as cached.
import { join } from 'node:path';
import { expect, test } from 'vitest';
import type { GroundedView } from '../../../shared/contract/index.ts';
import { tempDir } from '../../../test/support/temp.ts';
import { openDatabase } from '../../db/open.ts';
import { askKey, prepareAnswerCache } from './answer-cache.ts';

const over = {
  model: 'local/m',
  question: 'When is the meeting?',
  messageIds: [3, 1],
  documentIds: [7, 2, 7],
};
const view: GroundedView = { answer: 'Tuesday [m1].', cited: true, citations: [], cached: false, note: null };

test('the ask key does not depend on the order or repetition of the ids named', () => {
  expect(askKey({ ...over, messageIds: [1, 3], documentIds: [2, 7] })).toBe(askKey(over));
  expect(askKey({ ...over, question: 'Where is the meeting?' })).not.toBe(askKey(over));
  expect(askKey({ ...over, messageIds: [1, 3, 4] })).not.toBe(askKey(over));
});

test('a stored answer reads back under its key as cached, and another key finds nothing', () => {
  const cache = prepareAnswerCache(openDatabase(join(tempDir(), 'skimmer.db')), () => 5);
  cache.storeAsk(askKey(over), view);
  expect(cache.ask(askKey(over))).toEqual({ ...view, cached: true });
  expect(cache.ask(askKey({ ...over, model: 'local/other' }))).toBeUndefined();
});
