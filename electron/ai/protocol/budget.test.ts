import { isDeepStrictEqual } from 'node:util';
import { describe, expect, test } from 'vitest';
import {
  charsPerToken,
  estimateTokens,
  messageOverheadTokens,
  omissionNote,
  type TrimOptions,
  type TrimResult,
  trimHistory,
} from './budget.ts';
import { assertToolPairing, type Block, type Turn } from './messages.ts';

const text = (t: string): Block => ({ type: 'text', text: t });
const call = (id: string, input: unknown = {}): Block => ({
  type: 'tool_call',
  id,
  name: 'search_mail',
  input,
});
const result = (callId: string, output = '[]'): Block => ({
  type: 'tool_result',
  callId,
  name: 'search_mail',
  output,
  isError: false,
});
const user = (...content: Block[]): Turn => ({ role: 'user', content });
const assistant = (...content: Block[]): Turn => ({ role: 'assistant', content });

// A text block whose turn is estimated at exactly `tokens` (a multiple of four characters, so appending
// the note adds exactly the note's own rounded-up size).
const sized = (tokens: number): Block => text('x'.repeat((tokens - messageOverheadTokens) * charsPerToken));
const noteTokens = (dropped: number) => Math.ceil(omissionNote(dropped).length / charsPerToken);
const total = (history: readonly Turn[]) => history.reduce((sum, t) => sum + estimateTokens(t), 0);
const budgetOf = (o: TrimOptions) =>
  o.maxInputTokens - o.reserveOutputTokens - (o.systemTokens ?? 0) - (o.toolTokens ?? 0);
const window = (maxInputTokens: number): TrimOptions => ({ maxInputTokens, reserveOutputTokens: 0 });

function kept(result: TrimResult): Turn[] {
  if (!result.ok) throw new Error('expected a trimmed history, got context_overflow');
  return result.history;
}

describe('estimateTokens', () => {
  test.each([
    ['an empty turn costs only the per-message overhead', user(), 4],
    ['four characters are one token', user(text('abcd')), 5],
    ['a fifth character rounds up to a second token', user(text('abcde')), 6],
    ['text blocks in one turn are counted together', user(text('ab'), text('cd')), 5],
    // 'c1' + 'search_mail' + '{"query":"x"}' = 2 + 11 + 13 = 26 characters → 7 tokens.
    ['a tool call counts its id, name and input as JSON', assistant(call('c1', { query: 'x' })), 11],
    ['a tool call without input counts only its id and name', assistant(call('c1', undefined)), 8],
    // 'c1' + 'search_mail' + '[]' = 15 characters → 4 tokens.
    ['a tool result counts its call id, name and output', user(result('c1')), 8],
  ])('%s', (_name, turn, expected) => {
    expect(estimateTokens(turn)).toBe(expected);
  });
});

describe('omissionNote', () => {
  test.each([
    [1, "[1 earlier message was left out here to fit the model's context window.]"],
    [3, "[3 earlier messages were left out here to fit the model's context window.]"],
  ])('says how many messages were left out (%i)', (dropped, expected) => {
    expect(omissionNote(dropped)).toBe(expected);
  });
});

describe('trimHistory', () => {
  // Seven chat turns of 100 tokens each: U0 A1 U2 A3 U4 A5 U6.
  const chat = [0, 1, 2, 3, 4, 5, 6].map((i) => (i % 2 === 0 ? user(sized(100)) : assistant(sized(100))));

  test('returns the history as it is, in a new array, when it fits', () => {
    const trimmed = trimHistory(chat, window(700));
    expect(trimmed).toEqual({ ok: true, history: chat, dropped: 0 });
    expect(kept(trimmed)).not.toBe(chat);
    kept(trimmed).forEach((turn, i) => {
      expect(turn).toBe(chat[i]);
    });
  });

  test.each([
    ['drops the oldest exchange first when that is enough', 500 + noteTokens(2), [0, 3, 4, 5, 6], 2],
    ['drops further exchanges, oldest first, until the rest fits', 300 + noteTokens(4), [0, 5, 6], 4],
  ])('%s', (_name, maxInputTokens, keptIndexes, dropped) => {
    const trimmed = trimHistory(chat, window(maxInputTokens));
    expect(trimmed.ok && trimmed.dropped).toBe(dropped);
    const out = kept(trimmed);
    expect(out.slice(1)).toEqual(keptIndexes.slice(1).map((i) => chat[i]));
    expect(total(out)).toBeLessThanOrEqual(maxInputTokens);
  });

  test('appends the note to the end of the first user message, so the next kept turn is an assistant', () => {
    const out = kept(trimHistory(chat, window(500 + noteTokens(2))));
    expect(out[0]).toEqual(user(...(chat[0] as Turn).content, text(omissionNote(2))));
    expect(out.map((t) => t.role)).toEqual(['user', 'assistant', 'user', 'assistant', 'user']);
  });

  test('one token short of the note, drops another exchange', () => {
    const trimmed = trimHistory(chat, window(500 + noteTokens(2) - 1));
    expect(trimmed.ok && trimmed.dropped).toBe(4);
  });

  test('counts the system prompt, the tools and the reserved output against the window', () => {
    const opts = { maxInputTokens: 1000, reserveOutputTokens: 300, systemTokens: 100, toolTokens: 100 };
    const trimmed = trimHistory(chat, opts);
    expect(trimmed.ok && trimmed.dropped).toBe(4);
    expect(total(kept(trimmed))).toBeLessThanOrEqual(500);
  });

  test('overflows when the system prompt, tools and reserved output leave no room', () => {
    const opts = { maxInputTokens: 1000, reserveOutputTokens: 800, systemTokens: 100, toolTokens: 100 };
    expect(trimHistory([], opts)).toEqual({ ok: true, history: [], dropped: 0 });
    expect(trimHistory([user(text('hi'))], opts)).toEqual({ ok: false, code: 'context_overflow' });
  });

  test('overflows when the newest turns alone are over the window', () => {
    const history = [
      user(sized(10)),
      assistant(sized(10)),
      user(sized(10)),
      assistant(sized(10)),
      user(sized(1000)),
    ];
    expect(trimHistory(history, window(999))).toEqual({ ok: false, code: 'context_overflow' });
  });

  test('keeps a large first user message and overflows rather than drop it', () => {
    const history = [
      user(sized(1000)),
      assistant(sized(10)),
      user(sized(10)),
      assistant(sized(10)),
      user(sized(10)),
    ];
    expect(trimHistory(history, window(500))).toEqual({ ok: false, code: 'context_overflow' });
  });

  // U0, a tool round A1/U2, A3, U4: the round is the oldest group after the first message.
  const toolRound = [
    user(sized(100)),
    assistant(text('Searching.'), call('a'), call('b')),
    user(result('a', 'x'.repeat(2000)), result('b')),
    assistant(sized(100)),
    user(sized(100)),
  ];

  test('drops an assistant tool call together with the results that answer it', () => {
    const out = kept(trimHistory(toolRound, window(300 + noteTokens(2))));
    expect(out.slice(1)).toEqual(toolRound.slice(3));
    expect(assertToolPairing(out)).toEqual([]);
  });

  // U0 A1 U2, then a tool round A3/U4 answered by A5: the last two turns are U4 and A5.
  const toolTail = [
    user(sized(100)),
    assistant(sized(100)),
    user(sized(100)),
    assistant(call('c', { query: 'invoices' })),
    user(result('c', 'x'.repeat(400))),
    assistant(sized(100)),
  ];
  const toolTailMinimum = 100 + noteTokens(2) + total(toolTail.slice(3));

  test('keeps the call whose result is among the last two turns', () => {
    const trimmed = trimHistory(toolTail, window(toolTailMinimum));
    expect(trimmed.ok && trimmed.dropped).toBe(2);
    expect(kept(trimmed).slice(1)).toEqual(toolTail.slice(3));
  });

  test('overflows rather than keep a tool result without its call', () => {
    expect(trimHistory(toolTail, window(toolTailMinimum - 1))).toEqual({
      ok: false,
      code: 'context_overflow',
    });
  });

  test('drops more rather than leave two user turns side by side', () => {
    // U0 A1 U2 U3 A4 U5: dropping A1 alone would fit, but would join U0 and U2.
    const history = [
      user(sized(100)),
      assistant(sized(100)),
      user(sized(100)),
      user(sized(100)),
      assistant(sized(100)),
      user(sized(100)),
    ];
    const trimmed = trimHistory(history, window(500));
    expect(trimmed.ok && trimmed.dropped).toBe(3);
    expect(kept(trimmed).map((t) => t.role)).toEqual(['user', 'assistant', 'user']);
  });

  test('without any user message, puts the note in a user turn of its own, first', () => {
    const history = [
      assistant(sized(100)),
      assistant(sized(100)),
      assistant(sized(100)),
      assistant(sized(100)),
    ];
    const out = kept(trimHistory(history, window(300)));
    expect(out).toEqual([user(text(omissionNote(2))), history[2], history[3]]);
  });

  test('keeps turns before the first user message along with it', () => {
    const history = [assistant(sized(50)), user(sized(100)), assistant(sized(100)), user(sized(100))];
    const extra = [assistant(sized(100)), user(sized(100))];
    const out = kept(trimHistory([...history, ...extra], window(350 + noteTokens(2))));
    expect(out.slice(0, 1)).toEqual(history.slice(0, 1));
    expect(out[1]?.content).toEqual([...(history[1] as Turn).content, text(omissionNote(2))]);
    expect(out.slice(2)).toEqual(extra);
  });
});

// Property-style: many random valid histories, with tool rounds, trimmed at random budgets. A fixed seed
// keeps a failure reproducible; the message names the case.
describe('trimHistory on random histories', () => {
  // Each history is deeply frozen, so trimming that writes to it throws; `stored` is a copy to compare.
  type Case = { name: string; history: Turn[]; stored: Turn[]; opts: TrimOptions; alternating: boolean };
  const cases = randomCases(0x5eed, 1000);
  const run = (c: Case) => trimHistory(c.history, c.opts);

  test('the cases exercise keeping, trimming and overflowing', () => {
    const outcomes = cases.map(run).map((r) => (!r.ok ? 'overflow' : r.dropped > 0 ? 'trimmed' : 'kept'));
    for (const outcome of ['kept', 'trimmed', 'overflow']) {
      expect(outcomes.filter((o) => o === outcome).length).toBeGreaterThan(100);
    }
    expect(
      cases.filter((c) => c.history.some((t) => t.content.some((b) => b.type === 'tool_call'))).length,
    ).toBe(cases.length);
  });

  test('never changes the stored history', () => {
    const changed = cases.filter((c) => {
      run(c);
      return !isDeepStrictEqual(c.history, c.stored);
    });
    expect(changed.map((c) => c.name)).toEqual([]);
  });

  test('keeps every tool call paired with its result at any budget', () => {
    for (const c of cases) {
      const r = run(c);
      if (r.ok) expect(assertToolPairing(r.history), c.name).toEqual([]);
    }
  });

  test('fits the estimated budget, or reports context_overflow', () => {
    for (const c of cases) {
      const r = run(c);
      if (r.ok) expect(total(r.history), c.name).toBeLessThanOrEqual(budgetOf(c.opts));
      else expect(r.code, c.name).toBe('context_overflow');
    }
  });

  test('overflows only when the first user message and the last three turns cannot fit', () => {
    for (const c of cases.filter((c) => c.alternating)) {
      const r = run(c);
      if (r.ok) continue;
      const n = c.history.length;
      const pinned = c.history.filter((_, i) => i === 0 || i >= n - 3);
      expect(total(pinned) + noteTokens(n), c.name).toBeGreaterThan(budgetOf(c.opts));
    }
  });

  test('keeps the first user message and the last two turns', () => {
    for (const c of cases) {
      const r = run(c);
      if (!r.ok) continue;
      const first = c.history.findIndex((t) => t.role === 'user');
      const note = r.dropped > 0 ? [text(omissionNote(r.dropped))] : [];
      if (first >= 0)
        expect(r.history[first]?.content, c.name).toEqual([...(c.history[first]?.content ?? []), ...note]);
      expect(r.history.slice(-2), c.name).toEqual(c.history.slice(-2));
    }
  });

  test('removes one run of whole turns, right after the first user message', () => {
    for (const c of cases) {
      const r = run(c);
      if (!r.ok) continue;
      const headEnd = c.history.findIndex((t) => t.role === 'user') + 1;
      const expected = [...c.history.slice(0, headEnd), ...c.history.slice(headEnd + r.dropped)];
      const withoutNote = r.history.map((t, i) =>
        i === headEnd - 1 && r.dropped > 0 ? { ...t, content: t.content.slice(0, -1) } : t,
      );
      expect(withoutNote, c.name).toEqual(expected);
    }
  });

  test('keeps roles alternating, starting with the user, when the stored history does', () => {
    for (const c of cases.filter((c) => c.alternating)) {
      const r = run(c);
      if (!r.ok) continue;
      r.history.forEach((t, i) => {
        expect(t.role, `${c.name}, turn ${i}`).toBe(i % 2 === 0 ? 'user' : 'assistant');
      });
    }
  });

  function randomCases(seed: number, count: number): Case[] {
    const rand = mulberry32(seed);
    const int = (max: number) => Math.floor(rand() * (max + 1));
    const words = (max: number) => 'word '.repeat(int(max)).slice(0, int(max * 5));
    const out: Case[] = [];
    for (let k = 0; k < count; k++) {
      const alternating = k % 2 === 0;
      let ids = 0;
      const history: Turn[] = [];
      if (!alternating && rand() < 0.3) history.push(assistant(text(words(100))));
      history.push(user(text(words(400))));
      const rounds = 1 + int(10);
      const toolRoundAt = int(rounds - 1); // at least one tool round per history
      for (let r = 0; r < rounds; r++) {
        if (r === toolRoundAt || rand() < 0.4) {
          const calls = Array.from({ length: 1 + int(2) }, () => `call_${++ids}`);
          const preface = rand() < 0.5 ? [text(words(40))] : [];
          history.push(
            assistant(...preface, ...calls.map((id) => call(id, { query: words(20), limit: int(50) }))),
          );
          const results = calls.map((id) => result(id, words(800)));
          if (rand() < 0.5) results.reverse();
          history.push(user(...results, ...(rand() < 0.2 ? [text(words(30))] : [])));
        } else {
          history.push(assistant(text(words(300))), user(text(words(300))));
        }
        if (!alternating && rand() < 0.2) history.push(user(text(words(50))));
        if (!alternating && rand() < 0.1)
          history.push(assistant(text(words(50))), assistant(text(words(50))));
      }
      if (rand() < 0.5) history.push(assistant(text(words(300))));
      expect(assertToolPairing(history)).toEqual([]);
      const size = total(history);
      const opts: TrimOptions = {
        maxInputTokens: int(Math.ceil(size * 1.3)),
        reserveOutputTokens: int(100),
        ...(rand() < 0.5 ? { systemTokens: int(100) } : {}),
        ...(rand() < 0.5 ? { toolTokens: int(100) } : {}),
      };
      const name = `case ${k} (seed ${seed})`;
      out.push({ name, history: deepFreeze(history), stored: structuredClone(history), opts, alternating });
    }
    return out;
  }
});

function mulberry32(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}
