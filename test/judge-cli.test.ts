// `skimmer judge` end to end (issue 6): real processes, local servers speaking the OpenAI Decisions and the
// System One shapes from the hand-written fixtures (fixtures/judge). Whatever the format, each message gets
// one line with its answers in the OpenAI shape; the same question about the same mail is never asked twice;
// a bad question file is refused before any request; a refused key is an error line and a non-zero exit.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type ReplayServer, startReplayServer } from '../fixtures/judge/replay-server.ts';
import { jsonLines, runSkimmer } from './support/cli.ts';
import { eml, tempDir } from './support/temp.ts';

const judgeDir = join(import.meta.dirname, '..', 'fixtures', 'judge');
const reply = (format: string, name: string) => {
  const meta = JSON.parse(readFileSync(join(judgeDir, format, `${name}.json`), 'utf8')) as {
    status: number;
    headers: Record<string, string>;
    expected: { answers?: unknown[] };
  };
  return {
    meta,
    reply: {
      status: meta.status,
      headers: meta.headers,
      body: readFileSync(join(judgeDir, format, `${name}.body`)),
    },
  };
};

const data = tempDir();
const work = tempDir();
const questions = join(judgeDir, 'questions', 'support.json');
let decisions: ReplayServer;
let systemone: ReplayServer;
const skimmer = (args: string[]) => runSkimmer(['--data', data, ...args]);

beforeAll(async () => {
  writeFileSync(
    join(work, '1.eml'),
    eml({ id: '<j1@x>', subject: 'Charged twice', body: 'Help ASAP, charged twice.' }),
  );
  writeFileSync(join(work, '2.eml'), eml({ id: '<j2@x>', subject: 'Hello', body: 'Just saying hi.' }));
  expect((await skimmer(['import', work])).code).toBe(0);
  decisions = await startReplayServer();
  systemone = await startReplayServer();
  expect(
    (await skimmer(['service', 'add', 'dec', '--kind', 'decisions', '--base', decisions.base])).code,
  ).toBe(0);
  expect(
    (await skimmer(['service', 'add', 'one', '--kind', 'systemone', '--base', systemone.base])).code,
  ).toBe(0);
}, 60_000);

afterAll(async () => {
  await decisions?.close();
  await systemone?.close();
});

describe('skimmer judge', () => {
  test('prints one line per message with answers in the OpenAI shape', async () => {
    const { meta, reply: r } = reply('decisions', 'all-types');
    decisions.serve(r);
    const out = await skimmer(['judge', 'dec/gpt-6-luna', '--questions', questions, '--all', '--json']);
    expect(out.code).toBe(0);
    const lines = jsonLines(out.stdout);
    expect(lines).toHaveLength(2);
    for (const line of lines)
      expect(line).toEqual({ messageId: expect.any(Number), answers: meta.expected.answers });
    expect(decisions.received).toHaveLength(2);
    expect(decisions.received[0]?.url).toBe('/v1/decisions');
    // The mail went only into `input`, never into the questions.
    const body = JSON.parse(decisions.received[0]?.body ?? '{}') as { input: string; questions: unknown[] };
    expect(JSON.stringify(body.questions)).not.toMatch(/charged twice|saying hi/i);
  });

  test('asks nothing twice: the second run comes from the cache', async () => {
    const before = decisions.received.length;
    const out = await skimmer(['judge', 'dec/gpt-6-luna', '--questions', questions, '--all', '--json']);
    expect(out.code).toBe(0);
    expect(jsonLines(out.stdout)).toHaveLength(2);
    expect(decisions.received.length).toBe(before);
    // The same model named with --model is the same cache.
    const flagged = await skimmer([
      'judge',
      '--model',
      'dec/gpt-6-luna',
      '--questions',
      questions,
      '--all',
      '--json',
    ]);
    expect(flagged.code).toBe(0);
    expect(jsonLines(flagged.stdout)).toHaveLength(2);
    expect(decisions.received.length).toBe(before);
  });

  test('a System One service answers in the same OpenAI shape', async () => {
    const { meta, reply: r } = reply('systemone', 'all-types');
    systemone.serve(r);
    const out = await skimmer([
      'judge',
      'one/jev-latest',
      '--questions',
      questions,
      '--message',
      '1',
      '--json',
    ]);
    expect(out.code).toBe(0);
    expect(jsonLines(out.stdout)).toEqual([{ messageId: 1, answers: meta.expected.answers }]);
    expect(systemone.received.at(-1)?.url).toBe('/v1/systemone');
  });

  test('refuses a bad question file before any request', async () => {
    const bad = join(work, 'bad.json');
    writeFileSync(
      bad,
      JSON.stringify([{ type: 'choice', name: 'x', instructions: 'Pick', choices: [{ value: 'only' }] }]),
    );
    const before = decisions.received.length;
    const out = await skimmer(['judge', 'dec/gpt-6-luna', '--questions', bad, '--all', '--json']);
    expect(out.code).toBe(2);
    expect(jsonLines(out.stdout)).toEqual([
      { type: 'error', code: 'invalid_request', message: expect.stringMatching(/choice/i) },
    ]);
    expect(decisions.received.length).toBe(before);
  });

  test('a refused key is an error line and a non-zero exit', async () => {
    const { reply: r } = reply('systemone', 'http-401');
    systemone.serve(r);
    const other = join(work, 'other.json');
    writeFileSync(
      other,
      JSON.stringify([{ type: 'predicate', name: 'spam', instructions: 'Is this spam?' }]),
    );
    const out = await skimmer(['judge', 'one/jev-latest', '--questions', other, '--message', '2', '--json']);
    expect(out.code).toBe(1);
    expect(jsonLines(out.stdout)).toEqual([
      { type: 'error', code: 'unauthorized', message: expect.any(String), messageId: 2 },
    ]);
  });
});
