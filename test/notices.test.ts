// One unreadable frame between good ones (DESIGN §6, fixtures/sse `invalid-json`): the answer is kept whole
// but for that frame, the turn still ends with the provider's own end, and the stored answer keeps the mark.
// Through the CLI (a real process) and the bridge, with and without tools, against a real local server.
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { noticeMessage } from '../electron/ai/protocol/events.ts';
import { createApp } from '../electron/app.ts';
import { openDatabase } from '../electron/db/open.ts';
import { type CorpusProvider, loadCorpus } from '../fixtures/sse/corpus.ts';
import type { StreamEvent } from '../shared/contract/index.ts';
import { call, streamUntil } from './support/bridge.ts';
import { serveScript } from './support/chat-script.ts';
import { jsonLines, runSkimmer } from './support/cli.ts';
import { tempDir } from './support/temp.ts';

const body = (provider: CorpusProvider) =>
  loadCorpus(provider).find((f) => f.name === 'invalid-json')?.body ?? Buffer.alloc(0);
// Anthropic is asked at /v1/messages, OpenAI Chat at /v1/chat/completions.
const model = await serveScript((_, req) =>
  body(req.url?.endsWith('/messages') ? 'anthropic' : 'openai-chat'),
);
const { base } = model;

const data = tempDir();
const app = createApp({ dataDir: tempDir(), mode: 'browser' });
afterAll(async () => {
  await app.close();
  await model.close();
});
await call(app, 'service:add', { name: 'chat', kind: 'openai', baseUrl: base });
await call(app, 'service:add', { name: 'claude', kind: 'anthropic', baseUrl: base });

// The text of the fixture without the frame that could not be read.
const kept = 'Two invoices both unpaid 📎.';
const notice = { type: 'notice', code: 'malformed_stream', message: noticeMessage };

const skimmer = (args: string[]) => runSkimmer(['--data', data, ...args]);
const storedAnswers = () => {
  const db = openDatabase(join(data, 'skimmer.db'));
  try {
    return db
      .prepare(
        "SELECT content_json, notice_code FROM conversation_messages WHERE role = 'assistant' ORDER BY id",
      )
      .all() as { content_json: string; notice_code: string | null }[];
  } finally {
    db.close();
  }
};

describe('skimmer ask after a frame it cannot read', () => {
  test('--json prints the notice before done, exits 0 and stores the answer marked', async () => {
    await skimmer(['service', 'add', 'chat', '--kind', 'openai', '--base', base]);
    const r = await skimmer(['ask', 'chat/m', 'Any invoices?', '--json']);
    expect(r.code).toBe(0);
    const out = jsonLines(r.stdout).filter((o) => o.type !== 'start' && o.type !== 'usage');
    expect(out).toEqual([
      { type: 'text', text: 'Two invoices ' },
      notice,
      { type: 'text', text: 'both unpaid 📎.' },
      { type: 'done', stopReason: 'end_turn' },
    ]);
    expect(storedAnswers().at(-1)).toEqual({
      content_json: JSON.stringify([{ type: 'text', text: kept }]),
      notice_code: 'malformed_stream',
    });
  });

  test('with --tools the run prints the notice before done and stores its answer marked', async () => {
    const r = await skimmer(['ask', 'chat/m', 'Any invoices?', '--tools', '--json']);
    expect(r.code).toBe(0);
    const types = jsonLines(r.stdout).map((o) => o.type);
    expect(types.indexOf('notice')).toBeGreaterThan(types.indexOf('text'));
    expect(types.at(-1)).toBe('done');
    expect(jsonLines(r.stdout).find((o) => o.type === 'notice')).toEqual(notice);
    expect(storedAnswers().at(-1)?.notice_code).toBe('malformed_stream');
  });
});

const streamed = (streamId: string) => streamUntil(app, streamId, ['chat_done', 'chat_error']);

describe.each([
  ['Anthropic', 'claude/m'],
  ['OpenAI Chat', 'chat/m'],
])('the chat pane, %s, after a frame it cannot read', (_name, model) => {
  test.each([false, true])(
    'tools %s: the answer finishes, marked, and is read back marked',
    async (tools) => {
      const { streamId } = await call(app, 'chat:send', { model, prompt: 'Any invoices?', tools });
      const got = await streamed(streamId);
      const marks = got.filter((e) => e.type === 'chat_notice');
      expect(marks).toEqual([{ type: 'chat_notice', code: 'malformed_stream', message: noticeMessage }]);
      expect(got.indexOf(marks[0] as StreamEvent)).toBeLessThan(got.length - 1);
      expect(got.at(-1)).toEqual({ type: 'chat_done', stopReason: 'end_turn' });
      const text = got.flatMap((e) => (e.type === 'chat_text' ? [e.text] : [])).join('');
      expect(text).toBe(kept);

      const start = got[0] as { conversationId: number };
      const history = await call(app, 'chat:history', { conversationId: start.conversationId });
      expect(history.turns.at(-1)).toMatchObject({
        role: 'assistant',
        text: kept,
        ended: null,
        notice: { code: 'malformed_stream', message: noticeMessage },
      });
      expect(history.turns[0]).not.toHaveProperty('notice');
    },
  );
});
