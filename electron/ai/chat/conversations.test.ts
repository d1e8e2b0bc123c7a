import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { tempDir } from '../../../test/support/temp.ts';
import { openDatabase } from '../../db/open.ts';
import { assertToolPairing } from '../protocol/messages.ts';
import { prepareConversations } from './conversations.ts';

describe('conversations', () => {
  test('commits the user turn and the answer together, in order', () => {
    const c = prepareConversations(openDatabase(join(tempDir(), 'skimmer.db')));
    const id = c.create('  Any   invoices this week?  ', 'local/m');
    const run = c.startRun(id);
    c.commitTurn(
      { id: run, conversationId: id, status: 'done' },
      { role: 'user', content: [{ type: 'text', text: 'Any invoices this week?' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'Two.' }] },
      { inputTokens: 5, outputTokens: 1 },
    );
    expect(c.history(id)).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Any invoices this week?' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'Two.' }] },
    ]);
    expect(assertToolPairing(c.history(id))).toEqual([]);
  });

  test('a failed run with nothing received stores only the user turn', () => {
    const c = prepareConversations(openDatabase(join(tempDir(), 'skimmer.db')));
    const id = c.create('hi', 'local/m');
    c.commitTurn(
      { id: c.startRun(id), conversationId: id, status: 'error', errorCode: 'unauthorized' },
      { role: 'user', content: [{ type: 'text', text: 'hi' }] },
      { role: 'assistant', content: [] },
      null,
    );
    expect(c.history(id)).toHaveLength(1);
    // With no answer stored, the user's turn says how it ended.
    expect(c.notes(id)).toEqual([
      { usage: null, ended: { outcome: 'failed', code: 'unauthorized' }, notice: null },
    ]);
  });

  test('an answer part of which could not be read keeps its notice', () => {
    const c = prepareConversations(openDatabase(join(tempDir(), 'skimmer.db')));
    const id = c.create('hi', 'local/m');
    c.commitTurn(
      { id: c.startRun(id), conversationId: id, status: 'done', noticeCode: 'malformed_stream' },
      { role: 'user', content: [{ type: 'text', text: 'hi' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'Two invoices both unpaid.' }] },
      null,
    );
    expect(c.notes(id).map((n) => n.notice)).toEqual([null, 'malformed_stream']);
  });

  test("a tool run's notice is kept on its last answer, not on the results after it", () => {
    const c = prepareConversations(openDatabase(join(tempDir(), 'skimmer.db')));
    const id = c.create('hi', 'local/m');
    const call = { type: 'tool_call' as const, id: 'call_a1', name: 'list_labels', input: {} };
    const result = {
      type: 'tool_result' as const,
      callId: 'call_a1',
      name: 'list_labels',
      output: '[]',
      isError: false,
    };
    c.appendTurns(
      { id: c.startRun(id), conversationId: id, status: 'done', noticeCode: 'malformed_stream' },
      [
        { role: 'user', content: [{ type: 'text', text: 'hi' }] },
        { role: 'assistant', content: [call] },
        { role: 'user', content: [result] },
        { role: 'assistant', content: [{ type: 'text', text: 'No labels.' }] },
      ],
    );
    c.appendTurns({ id: c.startRun(id), conversationId: id, status: 'done' }, [
      { role: 'user', content: [{ type: 'text', text: 'thanks' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'You are welcome.' }] },
    ]);
    expect(c.notes(id).map((n) => n.notice)).toEqual([null, null, null, 'malformed_stream', null, null]);
  });

  test('a run left running by a crash is closed as interrupted on the next start', () => {
    const file = join(tempDir(), 'skimmer.db');
    const before = prepareConversations(openDatabase(file));
    before.startRun(before.create('hi', 'local/m'));
    const db = openDatabase(file);
    expect(prepareConversations(db).closeInterruptedRuns()).toBe(1);
    expect(db.prepare('SELECT status FROM runs').pluck().all()).toEqual(['interrupted']);
  });
});
