import { expect, test } from 'vitest';
import type { ChatBlock } from '../../../shared/contract/index.ts';
import type { ShownTurn } from '../stores/chat-store.ts';
import { displayTurns } from './display-turns.ts';

const text = (t: string): ChatBlock => ({ kind: 'text', text: t });
const call = (id: string): ChatBlock => ({ kind: 'tool_call', id, name: 'archive', args: { ids: [1] } });
const result = (id: string): ChatBlock => ({
  kind: 'tool_result',
  id,
  name: 'archive',
  isError: false,
  text: 'ok',
  untrusted: [],
});
const turn = (
  role: 'user' | 'assistant',
  blocks: ChatBlock[],
  extra: Partial<ShownTurn> = {},
): ShownTurn => ({
  role,
  blocks,
  text: blocks.flatMap((b) => (b.kind === 'text' ? [b.text] : [])).join(''),
  usage: null,
  ...extra,
});

test('a plain exchange reads as it was stored', () => {
  const turns = [turn('user', [text('Hi')]), turn('assistant', [text('Hello')])];
  expect(displayTurns(turns)).toEqual(turns);
});

test('the tool rounds of one answer read as one answer, results included', () => {
  const shown = displayTurns([
    turn('user', [text('archive the newsletters')]),
    turn('assistant', [call('a')], { usage: { inputTokens: 10, outputTokens: 2 } }),
    turn('user', [result('a')]),
    turn('assistant', [text('Done.')], { usage: { inputTokens: 20, outputTokens: 3 }, outcome: 'done' }),
  ]);
  expect(shown).toHaveLength(2);
  expect(shown[1]).toEqual({
    role: 'assistant',
    text: 'Done.',
    blocks: [call('a'), result('a'), text('Done.')],
    usage: { inputTokens: 30, outputTokens: 5 },
    outcome: 'done',
  });
});

test('results that open a turn with new words join the answer before it; the words stay the user’s', () => {
  const shown = displayTurns([
    turn('user', [text('archive them')]),
    turn('assistant', [call('a')]),
    turn('user', [result('a'), text('never mind')]),
    turn('assistant', [text('OK.')]),
  ]);
  expect(shown.map((t) => [t.role, t.blocks.map((b) => b.kind)])).toEqual([
    ['user', ['text']],
    ['assistant', ['tool_call', 'tool_result']],
    ['user', ['text']],
    ['assistant', ['text']],
  ]);
  expect(shown[2]?.text).toBe('never mind');
});

test('quoted mail stays with the user’s words', () => {
  const quote: ChatBlock = {
    kind: 'quote',
    parts: [{ source: 'message:1', text: 'x', suspect: false, quote: null }],
  };
  const shown = displayTurns([turn('user', [quote, text('What does it ask?')])]);
  expect(shown[0]?.blocks).toEqual([quote, text('What does it ask?')]);
});

test('a failed ending of the later part is the ending shown', () => {
  const shown = displayTurns([
    turn('assistant', [call('a')], { outcome: 'interrupted' }),
    turn('user', [result('a')]),
    turn('assistant', [], { outcome: 'failed', error: { message: 'The service failed.' } }),
  ]);
  expect(shown).toHaveLength(1);
  expect(shown[0]?.outcome).toBe('failed');
  expect(shown[0]?.error).toEqual({ message: 'The service failed.' });
});

test('a notice on any part of an answer marks the answer it joins', () => {
  const notice = { code: 'malformed_stream' as const, message: 'Part of this answer could not be read.' };
  const shown = displayTurns([
    turn('user', [text('archive it')]),
    turn('assistant', [call('a')], { notice }),
    turn('user', [result('a')]),
    turn('assistant', [text('Done.')]),
  ]);
  expect(shown).toHaveLength(2);
  expect(shown[1]?.notice).toEqual(notice);
  expect(shown[0]).not.toHaveProperty('notice');
});
