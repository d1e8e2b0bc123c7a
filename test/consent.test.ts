// Consent before mail leaves this computer (DESIGN §5): a service that is not on loopback gets no mail or
// document text — no tool run, no quoted mail, no judge question, no summary — until the user allows it for
// that service; an edit to the service asks again; a service on this computer needs no consent. Nothing here
// reaches a network: the refusal comes before any request (a fetch that would fail the test records it).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { judgeMessages } from '../electron/ai/triage/judge-messages.ts';
import { createApp } from '../electron/app.ts';
import { type StreamEvent, StreamMessage } from '../shared/contract.ts';
import { call, callRaw } from './support/bridge.ts';
import { jsonLines, runSkimmer } from './support/cli.ts';
import { eml, tempDir } from './support/temp.ts';

const data = tempDir();
const app = createApp({ dataDir: data, mode: 'browser' });
let remoteId = 0;
const question = [{ type: 'predicate' as const, name: 'urgent', instructions: 'Is it urgent?' }];

function finalEvent(streamId: string): Promise<StreamEvent> {
  return new Promise((resolve) => {
    const off = app.streams.listen((m) => {
      StreamMessage.parse(m);
      if (
        m.streamId === streamId &&
        ['chat_error', 'chat_done', 'chat_interrupted', 'summary_done', 'error'].includes(m.event.type)
      ) {
        off();
        resolve(m.event);
      }
    });
  });
}

beforeAll(async () => {
  const mail = tempDir();
  writeFileSync(join(mail, '1.eml'), eml({ id: '<c1@x>', subject: 'Salary review', body: 'Confidential.' }));
  await app.importFiles([mail], () => {}).done;
  remoteId = (
    await call(app, 'service:add', {
      name: 'cloud',
      kind: 'openai',
      baseUrl: 'https://api.example.com/v1',
      key: 'k-cloud-1234',
    })
  ).id;
  await call(app, 'service:add', {
    name: 'judge',
    kind: 'decisions',
    baseUrl: 'https://judge.example.com/v1',
  });
  await call(app, 'service:add', { name: 'local', kind: 'openai', baseUrl: 'http://127.0.0.1:9/v1' });
});
afterAll(() => app.close());

describe('consent before mail leaves this computer', () => {
  test('a remote service starts without consent; one on this computer needs none', async () => {
    const list = await call(app, 'service:list', {});
    expect(list.find((s) => s.name === 'cloud')).toMatchObject({ remote: true, mailAllowed: false });
    expect(list.find((s) => s.name === 'local')).toMatchObject({ remote: false, mailAllowed: true });
  });

  test('a tool run is refused with a sentence naming where the mail would go', async () => {
    const { streamId } = await call(app, 'chat:send', {
      model: 'cloud/gpt',
      prompt: 'Summarise my salary mail',
      tools: true,
    });
    expect(await finalEvent(streamId)).toEqual({
      type: 'chat_error',
      code: 'forbidden',
      message: expect.stringMatching(
        /not sent mail to https:\/\/api\.example\.com\/v1\/chat\/completions yet/,
      ),
    });
  });

  test('judge questions and summaries are refused before any request', async () => {
    const fetchSpy: typeof fetch = () => {
      throw new Error('no request may be made without consent');
    };
    await expect(
      judgeMessages(
        app,
        { model: 'judge/m', questions: question, messageIds: [1] },
        { onResult: () => {}, fetch: fetchSpy },
      ),
    ).rejects.toMatchObject({ reason: 'no_consent' });
    const { streamId } = await call(app, 'summary:thread', { threadId: 1, model: 'cloud/gpt' });
    expect(await finalEvent(streamId)).toMatchObject({ type: 'error', error: { code: 'forbidden' } });
  });

  test('allowing it lets the mail go; editing the service asks again; revoking stops it', async () => {
    expect(await call(app, 'service:consent', { id: remoteId, allow: true })).toMatchObject({
      mailAllowed: true,
    });
    const judgeId = (await call(app, 'service:list', {})).find((s) => s.name === 'judge')?.id ?? 0;
    await call(app, 'service:consent', { id: judgeId, allow: true });
    let asked = 0;
    const fetchSpy: typeof fetch = async () => {
      asked += 1;
      return new Response('{"answers":[{"type":"predicate","name":"urgent","probability":0.2}]}', {
        status: 200,
        headers: { 'content-type': 'application/json' },
      });
    };
    const result = await judgeMessages(
      app,
      { model: 'judge/m', questions: question, messageIds: [1] },
      { onResult: () => {}, fetch: fetchSpy },
    );
    expect(result.answered).toBe(1);
    expect(asked).toBe(1);
    const edited = await call(app, 'service:update', {
      id: remoteId,
      baseUrl: 'https://other.example.com/v1',
    });
    expect(edited.mailAllowed).toBe(false);
    await call(app, 'service:consent', { id: remoteId, allow: true });
    expect(await call(app, 'service:consent', { id: remoteId, allow: false })).toMatchObject({
      mailAllowed: false,
    });
    expect(await callRaw(app, 'service:consent', { id: 999, allow: true })).toMatchObject({
      ok: false,
      error: { code: 'not_found' },
    });
  });

  test('the CLI asks for consent and gives it', async () => {
    const other = tempDir();
    expect(
      (
        await runSkimmer([
          '--data',
          other,
          'service',
          'add',
          'far',
          '--kind',
          'openai',
          '--base',
          'https://far.example.com',
        ])
      ).code,
    ).toBe(0);
    const refused = await runSkimmer([
      '--data',
      other,
      'summarize',
      'far/m',
      '--doc',
      join(tempDir(), 'missing.md'),
      '--json',
    ]);
    expect(refused.code).toBe(1);
    expect(jsonLines(refused.stdout)).toEqual([
      { type: 'error', code: 'forbidden', message: expect.stringMatching(/Allow it for "far"/) },
    ]);
    const allowed = await runSkimmer(['--data', other, 'service', 'consent', 'far', '--allow', '--json']);
    expect(jsonLines(allowed.stdout)[0]).toMatchObject({ name: 'far', mailAllowed: true });
  });
});
