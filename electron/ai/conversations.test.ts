import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { tempDir } from '../../test/support/temp.ts';
import { openDatabase } from '../db/open.ts';
import { prepareConversations } from './conversations.ts';
import { assertToolPairing } from './protocol/messages.ts';

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
    expect(c.notes(id)).toEqual([{ usage: null, ended: { outcome: 'failed', code: 'unauthorized' } }]);
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
