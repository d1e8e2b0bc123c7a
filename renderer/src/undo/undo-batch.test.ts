import { expect, test } from 'vitest';
import type { UndoView } from '../../../shared/contract/index.ts';
import { newSince, stillOpen, undoSummary } from './undo-batch.ts';

const entry = (id: number, description: string): UndoView => ({ id, createdAt: id * 1000, description });

test('the batch is what appeared since the baseline, newest first', () => {
  const entries = [entry(7, 'c'), entry(6, 'b'), entry(5, 'a')];
  expect(newSince(entries, 5).map((e) => e.id)).toEqual([7, 6]);
  expect(newSince(entries, 7)).toEqual([]);
});

test('with no baseline only the newest entry is offered', () => {
  expect(newSince([entry(7, 'c'), entry(6, 'b')], null).map((e) => e.id)).toEqual([7]);
  expect(newSince([], null)).toEqual([]);
});

test('a batch can be undone while all its entries are open, newer ones or not', () => {
  const entries = [entry(7, 'c'), entry(6, 'b'), entry(5, 'a')];
  expect(stillOpen([entry(7, 'c'), entry(6, 'b')], entries)).toBe(true);
  expect(stillOpen([entry(6, 'b')], entries)).toBe(true);
  expect(stillOpen([entry(8, 'd'), entry(6, 'b')], entries)).toBe(false);
  expect(stillOpen([], entries)).toBe(false);
});

test('counts of the same change add up', () => {
  expect(undoSummary([entry(2, 'Archived 1 message'), entry(1, 'Archived 1 message')])).toBe(
    'Archived 2 messages',
  );
  expect(
    undoSummary([entry(2, 'Moved 2 messages to Receipts'), entry(1, 'Moved 1 message to Receipts')]),
  ).toBe('Moved 3 messages to Receipts');
});

test('different changes are listed oldest first', () => {
  expect(
    undoSummary([
      entry(3, 'Created the draft "Hi"'),
      entry(2, 'Marked 1 message read'),
      entry(1, 'Archived 1 message'),
    ]),
  ).toBe('Archived 1 message; Marked 1 message read; Created the draft "Hi"');
});
