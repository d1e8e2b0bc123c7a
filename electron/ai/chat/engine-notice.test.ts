// A notice in a model turn (DESIGN §6): part of the turn could not be read, the run goes on to its end.
import { expect, test } from 'vitest';
import { type AiEvent, noticeMessage } from '../protocol/events.ts';
import { type EngineEvent, runEngine } from './engine.ts';

const notice: AiEvent = {
  type: 'error',
  code: 'malformed_stream',
  message: 'The service sent an answer Skimmer could not read.',
  terminal: false,
};

async function* turn(events: AiEvent[]): AsyncGenerator<AiEvent> {
  yield* events;
}

test('a notice mid-answer is passed on and the run still ends done, with the text that arrived', async () => {
  const events: EngineEvent[] = [];
  for await (const e of runEngine({
    model: 'm',
    history: [],
    tools: [],
    prompt: 'Any invoices?',
    stream: () =>
      turn([
        { type: 'message_start' },
        { type: 'text_delta', text: 'Two invoices ' },
        notice,
        { type: 'text_delta', text: 'both unpaid.' },
        { type: 'message_stop', stopReason: 'end_turn' },
      ]),
  })) {
    events.push(e);
  }
  expect(events.map((e) => e.type)).toEqual(['text', 'notice', 'text', 'done']);
  expect(events[1]).toEqual({ type: 'notice', code: 'malformed_stream', message: noticeMessage });
  const done = events.at(-1);
  expect(done?.type === 'done' && done.turns.at(-1)).toEqual({
    role: 'assistant',
    content: [{ type: 'text', text: 'Two invoices both unpaid.' }],
  });
});
