import { describe, expect, test } from 'vitest';
import { assertToolPairing, mergeAdjacentTurns, type Turn } from './messages.ts';

const call = (id: string) => ({ type: 'tool_call' as const, id, name: 'search_mail', input: {} });
const result = (callId: string) => ({
  type: 'tool_result' as const,
  callId,
  name: 'search_mail',
  output: '[]',
  isError: false,
});
const text = (t: string) => ({ type: 'text' as const, text: t });

describe('assertToolPairing', () => {
  test('accepts a history where every call is answered in the next turn', () => {
    const history: Turn[] = [
      { role: 'user', content: [text('find invoices')] },
      { role: 'assistant', content: [text('Searching.'), call('a'), call('b')] },
      { role: 'user', content: [result('a'), result('b')] },
      { role: 'assistant', content: [text('Found two.')] },
    ];
    expect(assertToolPairing(history)).toEqual([]);
  });

  test('lists a call without a result and a result without a call', () => {
    const history: Turn[] = [
      { role: 'assistant', content: [call('a'), call('b')] },
      { role: 'user', content: [result('a'), result('z')] },
    ];
    expect(assertToolPairing(history)).toEqual([
      { kind: 'unanswered_call', turn: 0, callId: 'b' },
      { kind: 'orphan_result', turn: 1, callId: 'z' },
    ]);
  });

  test('an answer two turns later does not count', () => {
    const history: Turn[] = [
      { role: 'assistant', content: [call('a')] },
      { role: 'user', content: [text('never mind')] },
      { role: 'assistant', content: [text('ok')] },
      { role: 'user', content: [result('a')] },
    ];
    expect(assertToolPairing(history).map((p) => p.kind)).toEqual(['unanswered_call', 'orphan_result']);
  });

  test('flags blocks in the wrong role, duplicate ids and answering twice', () => {
    const history: Turn[] = [
      { role: 'user', content: [call('x')] },
      { role: 'assistant', content: [call('a'), result('a')] },
      { role: 'user', content: [result('a'), result('a')] },
      { role: 'assistant', content: [call('a')] },
      { role: 'user', content: [result('a')] },
    ];
    const kinds = assertToolPairing(history).map((p) => p.kind);
    expect(kinds).toContain('misplaced_block');
    expect(kinds).toContain('duplicate_call');
    expect(kinds.filter((k) => k === 'orphan_result')).toHaveLength(1);
  });
});

describe('mergeAdjacentTurns', () => {
  test('joins two user turns in a row, results first, and leaves alternating turns alone', () => {
    const history: Turn[] = [
      { role: 'user', content: [text('first try')] },
      { role: 'user', content: [text('second try')] },
      { role: 'assistant', content: [call('a')] },
      { role: 'user', content: [result('a')] },
      { role: 'user', content: [text('and then?')] },
    ];
    expect(mergeAdjacentTurns(history)).toEqual([
      { role: 'user', content: [text('first try'), text('second try')] },
      { role: 'assistant', content: [call('a')] },
      { role: 'user', content: [result('a'), text('and then?')] },
    ]);
    expect(assertToolPairing(mergeAdjacentTurns(history))).toEqual([]);
    const alternating = history.slice(1, 4);
    expect(mergeAdjacentTurns(alternating)).toEqual(alternating);
  });
});
