import { expect, test } from 'vitest';
import type { ChatBlock } from '../../../shared/contract.ts';
import { textOf, userBlocks, withText } from './live-blocks.ts';

const call: ChatBlock = { kind: 'tool_call', id: 'c1', name: 'search_mail', args: { query: 'x' } };

test('text continues the text before it', () => {
  expect(withText(withText([], 'Two '), 'invoices')).toEqual([{ kind: 'text', text: 'Two invoices' }]);
});

test('text after a tool call starts a new block', () => {
  expect(withText([{ kind: 'text', text: 'Looking.' }, call], 'Found.')).toEqual([
    { kind: 'text', text: 'Looking.' },
    call,
    { kind: 'text', text: 'Found.' },
  ]);
});

test('the text of an answer is its text blocks joined', () => {
  expect(textOf([{ kind: 'text', text: 'a' }, call, { kind: 'text', text: 'b' }])).toBe('ab');
});

test('quoted mail comes before the user’s words, and only when there is some', () => {
  const part = { source: 'message:20', text: 'Pay here', suspect: true, quote: 'Pay here' };
  expect(userBlocks('What is this?', [part])).toEqual([
    { kind: 'quote', parts: [part] },
    { kind: 'text', text: 'What is this?' },
  ]);
  expect(userBlocks('Hi', [])).toEqual([{ kind: 'text', text: 'Hi' }]);
});
