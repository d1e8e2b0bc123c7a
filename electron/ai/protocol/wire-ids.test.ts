import { describe, expect, test } from 'vitest';
import { assertToolPairing, type Turn } from './messages.ts';
import { toWireIds } from './wire-ids.ts';

const call = (id: string, wireId: string | undefined, name: string): Turn['content'][number] => ({
  type: 'tool_call',
  id,
  ...(wireId === undefined ? {} : { wireId }),
  name,
  input: {},
});
const result = (callId: string, output: string): Turn['content'][number] => ({
  type: 'tool_result',
  callId,
  name: 'x',
  output,
  isError: false,
});

// Which wire id each call went out under, and which output answered it.
function pairs(history: readonly Turn[]): [string, string, string][] {
  const out: [string, string, string][] = [];
  history.forEach((turn, i) => {
    if (turn.role !== 'assistant') return;
    const results = history[i + 1]?.content.filter((b) => b.type === 'tool_result') ?? [];
    const calls = turn.content.filter((b) => b.type === 'tool_call');
    for (const c of calls) {
      const r = results.filter((b) => b.callId === c.id);
      expect(r, `${c.id} is answered exactly once`).toHaveLength(1);
      out.push([c.name, c.id, r[0]?.type === 'tool_result' ? r[0].output : '']);
    }
  });
  return out;
}

describe('toWireIds', () => {
  test("sends each call under the provider's own id when no other call has it", () => {
    const history: Turn[] = [
      { role: 'assistant', content: [call('sc-a', 'call_1', 'search'), call('sc-b', 'call_2', 'read')] },
      { role: 'user', content: [result('sc-a', 'found'), result('sc-b', 'text')] },
    ];
    expect(pairs(toWireIds(history))).toEqual([
      ['search', 'call_1', 'found'],
      ['read', 'call_2', 'text'],
    ]);
  });

  test("sends two calls of a round that share the provider's id under Skimmer's ids, each with its result", () => {
    const history: Turn[] = [
      {
        role: 'assistant',
        content: [call('sc-a', 'call_same', 'mark_read'), call('sc-b', 'call_same', 'send_mail')],
      },
      { role: 'user', content: [result('sc-a', 'marked'), result('sc-b', 'declined')] },
    ];
    const wire = toWireIds(history);
    expect(pairs(wire)).toEqual([
      ['mark_read', 'call_same', 'marked'],
      ['send_mail', 'sc-b', 'declined'],
    ]);
    expect(assertToolPairing(wire)).toEqual([]);
  });

  test("sends calls with an empty id under Skimmer's ids", () => {
    const history: Turn[] = [
      { role: 'assistant', content: [call('sc-a', '', 'search'), call('sc-b', '', 'read')] },
      { role: 'user', content: [result('sc-a', 'found'), result('sc-b', 'text')] },
    ];
    expect(pairs(toWireIds(history))).toEqual([
      ['search', 'sc-a', 'found'],
      ['read', 'sc-b', 'text'],
    ]);
  });

  test("sends an id the provider reuses in a later round under Skimmer's id there", () => {
    const history: Turn[] = [
      { role: 'assistant', content: [call('sc-a', 'call_0', 'search')] },
      { role: 'user', content: [result('sc-a', 'first')] },
      { role: 'assistant', content: [call('sc-b', 'call_0', 'read')] },
      { role: 'user', content: [result('sc-b', 'second')] },
    ];
    const wire = toWireIds(history);
    expect(pairs(wire)).toEqual([
      ['search', 'call_0', 'first'],
      ['read', 'sc-b', 'second'],
    ]);
    expect(assertToolPairing(wire)).toEqual([]);
  });

  test('sends an id outside the shape every provider takes under Skimmer’s id', () => {
    const history: Turn[] = [
      { role: 'assistant', content: [call('sc-a', 'call one/2', 'search')] },
      { role: 'user', content: [result('sc-a', 'found')] },
    ];
    expect(pairs(toWireIds(history))).toEqual([['search', 'sc-a', 'found']]);
  });

  test('pairs a turn stored before Skimmer named calls, whose ids repeat, in call order', () => {
    const history: Turn[] = [
      {
        role: 'assistant',
        content: [call('call_same', undefined, 'mark_read'), call('call_same', undefined, 'send')],
      },
      { role: 'user', content: [result('call_same', 'marked'), result('call_same', 'declined')] },
    ];
    const wire = toWireIds(history);
    expect(pairs(wire)).toEqual([
      ['mark_read', 'call_same', 'marked'],
      ['send', 'call_same-2', 'declined'],
    ]);
    expect(assertToolPairing(wire)).toEqual([]);
  });

  test('leaves the stored turns as they were', () => {
    const history: Turn[] = [
      { role: 'assistant', content: [call('sc-a', '', 'search')] },
      { role: 'user', content: [result('sc-a', 'found')] },
    ];
    const before = structuredClone(history);
    toWireIds(history);
    expect(history).toEqual(before);
  });
});
