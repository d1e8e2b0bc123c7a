// `skimmer ask` end to end: a real process, a real local server speaking OpenAI Chat from the
// hand-written transcripts, and the conversation stored between turns.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { prepareModelChoices } from '../electron/ai/model-choices.ts';
import { prepareServices } from '../electron/ai/services.ts';
import { openDatabase } from '../electron/db/open.ts';
import { fileSealer } from '../electron/secrets/file-vault.ts';
import { createKeyVault } from '../electron/secrets/key-vault.ts';
import { type CorpusFixture, loadCorpus } from '../fixtures/sse/corpus.ts';
import { jsonLines, runSkimmer } from './support/cli.ts';
import { tempDir } from './support/temp.ts';

const chat = loadCorpus('openai-chat');
const fixture = (name: string) => chat.find((f) => f.name === name) as CorpusFixture;

let serving = fixture('text');
const bodies: unknown[] = [];
const server = createServer(async (req, res) => {
  let body = '';
  for await (const c of req) body += c;
  bodies.push(JSON.parse(body));
  res.writeHead(serving.status, serving.headers);
  res.end(serving.body);
});
await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const key = 'sk-test-canary-0123abcd';
const data = tempDir();

const skimmer = (args: string[], input?: string) =>
  runSkimmer(['--data', data, ...args], input === undefined ? {} : { input });
const lines = jsonLines;

describe('skimmer ask', () => {
  test('streams one JSON object per event and stores the turn, which the next ask sends back', async () => {
    await skimmer(['service', 'add', 'local', '--kind', 'openai', '--base', base, '--key-stdin'], key);
    const first = await skimmer(['ask', 'local/test-model', 'Any invoices?', '--json']);
    expect(first.code).toBe(0);
    const out = lines(first.stdout);
    expect(out[0]).toMatchObject({ type: 'start', conversationId: 1 });
    const text = out
      .filter((o) => o.type === 'text')
      .map((o) => o.text)
      .join('');
    const expectedText = (fixture('text').expected as { type: string; text?: string }[])
      .filter((e) => e.type === 'text_delta')
      .map((e) => e.text)
      .join('');
    expect(text).toBe(expectedText);
    expect(out.find((o) => o.type === 'usage')).toMatchObject({ inputTokens: 25, outputTokens: 12 });
    expect(out.at(-1)).toEqual({ type: 'done', stopReason: 'end_turn' });

    const second = await skimmer([
      'ask',
      'local/test-model',
      'And from Bob?',
      '--conversation',
      '1',
      '--json',
    ]);
    expect(second.code).toBe(0);
    expect(bodies.at(-1)).toMatchObject({
      model: 'test-model',
      messages: [
        // Plain chat carries the assistant's brief (today's date), nothing from the mailbox.
        { role: 'system', content: expect.stringContaining('Today is') },
        { role: 'user', content: 'Any invoices?' },
        { role: 'assistant', content: expectedText },
        { role: 'user', content: 'And from Bob?' },
      ],
    });
    const db = openDatabase(join(data, 'skimmer.db'));
    expect(
      db.prepare('SELECT count(*) FROM conversation_messages WHERE conversation_id = 1').pluck().get(),
    ).toBe(4);
    expect(db.prepare("SELECT count(*) FROM runs WHERE status = 'done'").pluck().get()).toBe(2);
    db.close();
  });

  test('with --model every word is the prompt, a word with a slash too', async () => {
    const r = await skimmer([
      'ask',
      '--model',
      'local/other-model',
      'Is',
      '1/2',
      'of',
      'it',
      'done?',
      '--json',
    ]);
    expect(r.code).toBe(0);
    expect(bodies.at(-1)).toMatchObject({
      model: 'other-model',
      messages: [{ role: 'system' }, { role: 'user', content: 'Is 1/2 of it done?' }],
    });
  });

  test('ends with one error line and a non-zero exit, without the key, when the service refuses', async () => {
    serving = fixture('http-401');
    const r = await skimmer(['ask', 'local/test-model', 'hello', '--json']);
    expect(r.code).toBe(1);
    expect(lines(r.stdout).at(-1)).toMatchObject({ type: 'error', code: 'unauthorized' });
    expect(r.stdout + r.stderr).not.toContain(key);
  });

  test('keeps what arrived when the stream is cut off', async () => {
    serving = fixture('truncated');
    const r = await skimmer(['ask', 'local/test-model', 'cut me off', '--json']);
    expect(r.code).toBe(1);
    const out = lines(r.stdout);
    expect(out.some((o) => o.type === 'text')).toBe(true);
    expect(out.at(-1)).toMatchObject({ type: 'error', code: 'malformed_stream' });
    const db = openDatabase(join(data, 'skimmer.db'));
    const last = db
      .prepare(
        "SELECT content_json FROM conversation_messages WHERE role = 'assistant' ORDER BY id DESC LIMIT 1",
      )
      .pluck()
      .get() as string;
    expect(JSON.parse(last)[0].text).toContain('Two invoices');
    db.close();
  });

  test('a prompt too long for the model window fails before anything is sent', async () => {
    serving = fixture('text');
    const before = bodies.length;
    // llama3's window is 8,192 tokens (capabilities.ts); 40,000 characters is about 10,000.
    const r = await skimmer(['ask', 'local/llama3', 'x'.repeat(40_000), '--json']);
    expect(lines(r.stdout).at(-1)).toMatchObject({ type: 'error', code: 'context_overflow' });
    expect(r.code).toBe(1);
    expect(bodies.length).toBe(before);
  });

  test.each([
    [['ask', 'nomodel', 'hi'], 'service/model'],
    [['ask', 'ghost/m', 'hi'], 'no model service named "ghost"'],
    [['ask', 'local/m'], 'Use `skimmer ask'],
  ])('skimmer %j fails with a sentence', async (args, text) => {
    const r = await skimmer(args);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain(text);
  });

  test('takes the model as its first word, with --model, or else the default chat model, as judge and summarize do', async () => {
    serving = fixture('text');
    const none = await skimmer(['ask', 'What', 'is', 'new?']);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/^Choose a model: name one as service\/model, or set a default chat model/);

    // The default the app's Settings keep, as the chat's field starts from it.
    const setDefault = (ref: string | null) => {
      const db = openDatabase(join(data, 'skimmer.db'));
      try {
        prepareModelChoices(db, prepareServices(db, createKeyVault(db, fileSealer(data)))).setDefault(
          'chat',
          ref,
        );
      } finally {
        db.close();
      }
    };
    setDefault('local/by-default');
    try {
      const byDefault = await skimmer(['ask', 'What', 'is', 'new?', '--json']);
      expect(byDefault.code).toBe(0);
      expect(bodies.at(-1)).toMatchObject({
        model: 'by-default',
        messages: [{ role: 'system' }, { role: 'user', content: 'What is new?' }],
      });
      // A word shaped service/model first is the model, as it always was.
      const named = await skimmer(['ask', 'local/first-word', 'What', 'is', 'new?', '--json']);
      expect(named.code).toBe(0);
      expect(bodies.at(-1)).toMatchObject({
        model: 'first-word',
        messages: [{ role: 'system' }, { role: 'user', content: 'What is new?' }],
      });
    } finally {
      setDefault(null);
    }
  });

  test.each([
    ['plain', []],
    ['with --tools', ['--tools']],
  ])(
    'a model it cannot read is exit 2 with an invalid_request line, as for judge and summarize (%s)',
    async (_name, extra) => {
      const before = bodies.length;
      const r = await skimmer(['ask', '--model', 'nomodel', 'hi', ...extra, '--json']);
      expect(r.code).toBe(2);
      expect(lines(r.stdout)).toEqual([
        { type: 'error', code: 'invalid_request', message: expect.stringContaining('service/model') },
      ]);
      expect(bodies.length).toBe(before);
    },
  );
});
