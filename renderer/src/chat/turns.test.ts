import { expect, test } from 'vitest';
import type { ChatBlock, UntrustedPart } from '../../../shared/contract/index.ts';
import { endedTurns, newLive, shownTurn, textOf, userBlocks, withEvent, withText } from './turns.ts';

const call: ChatBlock = { kind: 'tool_call', id: 'c1', name: 'search_mail', args: { query: 'x' } };
const part: UntrustedPart = { source: 'message:20', text: 'Pay here', suspect: true, quote: 'Pay here' };

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
  expect(userBlocks('What is this?', [part])).toEqual([
    { kind: 'quote', parts: [part] },
    { kind: 'text', text: 'What is this?' },
  ]);
  expect(userBlocks('Hi', [])).toEqual([{ kind: 'text', text: 'Hi' }]);
});

test('stream events build the answer in the order they came', () => {
  let live = newLive(1, 4, 'archive the newsletters');
  live = withEvent(live, { type: 'chat_context', parts: [part] }, 0);
  live = withEvent(live, { type: 'chat_tool_call', id: 'c1', name: 'search_mail', args: { query: 'x' } }, 0);
  live = withEvent(
    live,
    { type: 'chat_tool_result', id: 'c1', name: 'search_mail', isError: false, text: '', untrusted: [part] },
    0,
  );
  live = withEvent(live, { type: 'chat_text', text: 'Found one.' }, 0);
  live = withEvent(live, { type: 'chat_usage', inputTokens: 5, outputTokens: 2 }, 0);
  expect(live.context).toEqual([part]);
  expect(live.blocks.map((b) => b.kind)).toEqual(['tool_call', 'tool_result', 'text']);
  expect(live.usage).toEqual({ inputTokens: 5, outputTokens: 2 });
});

test('a retry counts down from when it was announced, and the next text clears it', () => {
  const waiting = withEvent(
    newLive(1, null, 'x'),
    { type: 'chat_retry', code: 'rate_limited', seconds: 2 },
    1000,
  );
  expect(waiting.retry).toEqual({ code: 'rate_limited', seconds: 2, until: 3000 });
  expect(withEvent(waiting, { type: 'chat_text', text: 'a' }, 0).retry).toBeNull();
});

test('a finished run adds the user’s turn and the answer; an answered card adds the answer alone', () => {
  const live = withEvent(newLive(1, 4, 'Hi'), { type: 'chat_text', text: 'Hello' }, 0);
  expect(endedTurns(live, 'done').map((t) => [t.role, t.text, t.outcome])).toEqual([
    ['user', 'Hi', undefined],
    ['assistant', 'Hello', 'done'],
  ]);
  expect(endedTurns({ ...live, prompt: null }, 'stopped', { note: 'Stopped.' })).toEqual([
    {
      role: 'assistant',
      text: 'Hello',
      blocks: [{ kind: 'text', text: 'Hello' }],
      usage: null,
      outcome: 'stopped',
      note: 'Stopped.',
    },
  ]);
});

test('a stored turn says how it ended', () => {
  const base = { role: 'assistant' as const, text: 'a', blocks: [], usage: null };
  expect(shownTurn({ ...base, ended: null }).outcome).toBeUndefined();
  expect(
    shownTurn({ ...base, ended: { outcome: 'failed', code: 'unauthorized', message: 'No key.' } }),
  ).toMatchObject({ outcome: 'failed', error: { message: 'No key.' } });
});

test('a notice marks the answer once, and the finished answer keeps the mark', () => {
  const mark = { code: 'malformed_stream' as const, message: 'Part of this answer could not be read.' };
  let live = withEvent(newLive(1, 4, 'Hi'), { type: 'chat_text', text: 'Two invoices ' }, 0);
  live = withEvent(live, { type: 'chat_notice', ...mark }, 0);
  live = withEvent(live, { type: 'chat_notice', ...mark }, 0);
  live = withEvent(live, { type: 'chat_text', text: 'both unpaid.' }, 0);
  expect(live.notice).toEqual(mark);
  expect(live.blocks).toEqual([{ kind: 'text', text: 'Two invoices both unpaid.' }]);
  const [asked, answer] = endedTurns(live, 'done');
  expect(answer).toMatchObject({ outcome: 'done', notice: mark });
  expect(asked).not.toHaveProperty('notice');
});

test('a stored answer read back with its notice keeps it', () => {
  const notice = { code: 'malformed_stream' as const, message: 'Part of this answer could not be read.' };
  expect(
    shownTurn({ role: 'assistant', text: 'a', blocks: [], usage: null, ended: null, notice }).notice,
  ).toEqual(notice);
});
