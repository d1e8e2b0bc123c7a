import { expect, test } from 'vitest';
import { senderLabel } from './sender-label.ts';

test.each([
  ['Grace Wright <grace.wright@initech.example>', 'Grace Wright'],
  ['"Wright, Grace" <grace@initech.example>', 'Wright, Grace'],
  ['<grace@initech.example>', 'grace@initech.example'],
  ['grace@initech.example', 'grace@initech.example'],
  ['Алексей Попов <a.popov@example.ru>', 'Алексей Попов'],
  ['Grace Wright', 'Grace Wright'],
  ['', ''],
])('a sender %j shows as %j', (from, shown) => {
  expect(senderLabel(from)).toBe(shown);
});
