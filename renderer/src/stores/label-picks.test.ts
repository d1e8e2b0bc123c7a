import { expect, test } from 'vitest';
import { changesOf, checkOf, clicked, filtered } from './label-picks.ts';

const labels = [
  { name: 'Clients', threads: 3 },
  { name: 'Review', threads: 1 },
  { name: 'Travel', threads: 0 },
];
const none = new Map<string, boolean>();
const [clients, review] = labels as [(typeof labels)[0], (typeof labels)[0]];

test('a label shows all, some or none of the three chosen conversations', () => {
  expect(labels.map((l) => checkOf(l, 3, none))).toEqual(['all', 'some', 'none']);
});

test('a click makes a label that some or none have all, and one that all have none', () => {
  const wanted = clicked(clients, 3, clicked(review, 3, none));
  expect(labels.map((l) => checkOf(l, 3, wanted))).toEqual(['none', 'all', 'none']);
});

test('Apply sends only what the clicks changed, and a label to create', () => {
  const wanted = new Map([
    ['Review', true],
    ['Clients', false],
    ['Travel', false],
  ]);
  expect(changesOf(labels, 3, wanted, 'Invoices')).toEqual({
    add: ['Review', 'Invoices'],
    remove: ['Clients'],
  });
  expect(changesOf(labels, 3, none, null)).toEqual({ add: [], remove: [] });
});

test('typing filters the labels, and offers to create a name no label has in any case', () => {
  expect(filtered(labels, 're')).toEqual({ shown: [review], canCreate: true });
  expect(filtered(labels, 'clients').canCreate).toBe(false);
  expect(filtered(labels, '  ').canCreate).toBe(false);
});
