// Consent before mail leaves this computer (DESIGN §5): a service that is not on loopback gets no mail or
// document text — no tool run, no quoted mail, no judge question, no triage job, no summary or question over
// mail or documents — until the user allows it for that service; an edit to the service asks again; a service
// on this computer needs no consent. Nothing here reaches a network: the refusal comes before any request (the
// services' addresses do not resolve, so a request would end as `transport`, and a fetch spy records one).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { connectForMail } from '../electron/ai/model-access.ts';
import type { Turn } from '../electron/ai/protocol/messages.ts';
import { messageBlock } from '../electron/ai/tools/mail-tools.ts';
import { judgeMessages } from '../electron/ai/triage/judge-messages.ts';
import { createApp } from '../electron/app.ts';
import { prepareQueries } from '../electron/mail/store/queries.ts';
import { type StreamEvent, StreamMessage } from '../shared/contract/index.ts';
import { call, callRaw } from './support/bridge.ts';
import { jsonLines, runSkimmer } from './support/cli.ts';
import { eml, tempDir } from './support/temp.ts';

const data = tempDir();
const app = createApp({ dataDir: data, mode: 'browser' });
let remoteId = 0;
let documentId = 0;
let setId = 0;
const question = [{ type: 'predicate' as const, name: 'urgent', instructions: 'Is it urgent?' }];

// A conversation whose stored turns hold mail, as an earlier run with the tools (on a service that needed no
// consent) left it.
function conversationHolding(turns: Turn[]): number {
  const id = app.conversations.create('Earlier', 'local/m');
  app.conversations.appendTurns(
    { id: app.conversations.startRun(id), conversationId: id, status: 'done' },
    turns,
  );
  return id;
}
const quotedMail = (): Turn[] => {
  const message = prepareQueries(app.db).message(1);
  if (!message) throw new Error('the imported message is missing');
  return [
    {
      role: 'user',
      content: [
        { type: 'text', text: messageBlock(message).text },
        { type: 'text', text: 'What is this?' },
      ],
    },
    { role: 'assistant', content: [{ type: 'text', text: 'A salary review.' }] },
  ];
};
const toolResult = (): Turn[] => [
  { role: 'user', content: [{ type: 'text', text: 'Find my salary mail' }] },
  {
    role: 'assistant',
    content: [{ type: 'tool_call', id: 'c1', name: 'search_mail', input: { query: 'salary' } }],
  },
  {
    role: 'user',
    content: [
      {
        type: 'tool_result',
        callId: 'c1',
        name: 'search_mail',
        output: 'Salary review: Confidential.',
        isError: false,
      },
    ],
  },
  { role: 'assistant', content: [{ type: 'text', text: 'One message.' }] },
];

function finalEvent(streamId: string): Promise<StreamEvent> {
  return new Promise((resolve) => {
    const off = app.streams.listen((m) => {
      StreamMessage.parse(m);
      if (
        m.streamId === streamId &&
        [
          'chat_error',
          'chat_done',
          'chat_interrupted',
          'summary_done',
          'draft_reply_done',
          'error',
          'triage_done',
        ].includes(m.event.type)
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
  const notes = join(tempDir(), 'salaries.md');
  writeFileSync(notes, '# Salaries\n\nEvery salary of the team, confidential.\n');
  documentId = (await call(app, 'documents:import', { paths: [notes] })).imported[0]?.id ?? 0;
  setId = (await call(app, 'judge:sets', {}))[0]?.id ?? 0;
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

  // Every way the page can send mail or document text to a model, each ending in its own kind of event.
  const refusalOf = (e: StreamEvent) =>
    e.type === 'chat_error'
      ? { code: e.code, message: e.message }
      : e.type === 'error'
        ? e.error
        : e.type === 'triage_done'
          ? { code: e.job.state, message: e.job.error }
          : { code: e.type, message: null };
  test.each<[string, () => Promise<{ streamId: string }>, string]>([
    [
      'a tool run',
      () => call(app, 'chat:send', { model: 'cloud/gpt', prompt: 'Summarise my salary mail', tools: true }),
      'forbidden',
    ],
    [
      'a chat quoting a message',
      () => call(app, 'chat:send', { model: 'cloud/gpt', prompt: 'What is this?', tools: true, quote: [1] }),
      'forbidden',
    ],
    ['a thread summary', () => call(app, 'summary:thread', { threadId: 1, model: 'cloud/gpt' }), 'forbidden'],
    ['a drafted reply', () => call(app, 'draft:aiReply', { message: 1, model: 'cloud/gpt' }), 'forbidden'],
    [
      'a question about a thread',
      () => call(app, 'summary:ask', { model: 'cloud/gpt', question: 'Who?', threadId: 1 }),
      'forbidden',
    ],
    [
      'a question about chosen messages',
      () => call(app, 'summary:ask', { model: 'cloud/gpt', question: 'Who?', messageIds: [1] }),
      'forbidden',
    ],
    [
      'a question about documents',
      () => call(app, 'summary:ask', { model: 'cloud/gpt', question: 'Who?', documentIds: [documentId] }),
      'forbidden',
    ],
    // Plain chat sends the stored turns too: once they hold mail, continuing needs the consent a tool run does.
    [
      'a plain chat continuing a conversation that quoted mail',
      () =>
        call(app, 'chat:send', {
          model: 'cloud/gpt',
          prompt: 'And?',
          conversationId: conversationHolding(quotedMail()),
        }),
      'forbidden',
    ],
    [
      'a plain chat continuing a conversation with tool results',
      () =>
        call(app, 'chat:send', {
          model: 'cloud/gpt',
          prompt: 'And?',
          conversationId: conversationHolding(toolResult()),
        }),
      'forbidden',
    ],
    // A triage job stores its failure; the job view carries the sentence, not the code.
    [
      'a triage job',
      () => call(app, 'triage:start', { setId, model: 'cloud/gpt', scope: { kind: 'all' } }),
      'failed',
    ],
  ])('%s is refused without consent, naming where the mail would go', async (_name, start, code) => {
    const { streamId } = await start();
    expect(refusalOf(await finalEvent(streamId))).toEqual({
      code,
      message: expect.stringMatching(
        /^Skimmer has not sent mail to https:\/\/api\.example\.com\/v1\/chat\/completions yet\. Allow it for "cloud"/,
      ),
    });
  });

  test('judge questions are refused before the key is read, and so before any request', async () => {
    await expect(connectForMail(app.services, 'judge/m')).rejects.toMatchObject({ reason: 'no_consent' });
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
    const access = await connectForMail(app.services, 'judge/m');
    const result = await judgeMessages(
      app,
      { model: 'judge/m', access, questions: question, messageIds: [1] },
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
    const questions = join(tempDir(), 'questions.json');
    writeFileSync(questions, JSON.stringify(question));
    // Every command that sends mail or document text: a summary, judge questions, a tool run.
    for (const command of [
      ['summarize', 'far/m', '--doc', join(tempDir(), 'missing.md')],
      ['judge', 'far/m', '--questions', questions, '--message', '1'],
      ['ask', 'far/m', 'Summarise my mail', '--tools'],
    ]) {
      const refused = await runSkimmer(['--data', other, ...command, '--json']);
      expect(refused.code, command[0]).toBe(1);
      expect(jsonLines(refused.stdout), command[0]).toEqual([
        { type: 'error', code: 'forbidden', message: expect.stringMatching(/Allow it for "far"/) },
      ]);
    }
    const allowed = await runSkimmer(['--data', other, 'service', 'consent', 'far', '--allow', '--json']);
    expect(jsonLines(allowed.stdout)[0]).toMatchObject({ name: 'far', mailAllowed: true });
  });
});
