// judge() as its callers see it, against a real HTTP server on 127.0.0.1: questions are checked before any
// connection, the format follows the service kind (never the URL), the key stays in its header, and what
// the server says about itself (model, request id) is only kept when it is printable.
import { afterAll, beforeEach, describe, expect, test } from 'vitest';
import { loadJudgeCorpus, loadQuestionFile } from '../../../fixtures/judge/corpus.ts';
import { startReplayServer } from '../../../fixtures/judge/replay-server.ts';
import type { ServiceKind } from '../../../shared/contract/index.ts';
import { AiFailure } from '../protocol/errors.ts';
import { judge } from './judge.ts';
import { parseQuestionFile, type Question } from './questions.ts';

const key = 'sk-test-canary-jdg-01';
const server = await startReplayServer();
afterAll(() => server.close());
beforeEach(() => {
  server.received.length = 0;
  server.serve(null);
});

function questions(name: string): Question[] {
  const parsed = parseQuestionFile(loadQuestionFile(name));
  if (!parsed.ok) throw new Error(parsed.reason);
  return parsed.questions;
}

function fixture(format: 'decisions' | 'systemone' | 'chat', name: string) {
  const f = loadJudgeCorpus(format).find((x) => x.name === name);
  if (!f) throw new Error(`no fixture ${format}/${name}`);
  return { status: f.status, headers: f.headers, body: f.body };
}

async function failure(promise: Promise<unknown>): Promise<AiFailure> {
  try {
    await promise;
  } catch (e) {
    if (e instanceof AiFailure) return e;
    throw e;
  }
  throw new Error('expected an AiFailure');
}

const kinds: ServiceKind[] = ['decisions', 'systemone', 'openai', 'openai-responses', 'anthropic'];

describe('before any network', () => {
  test.each(kinds)('%s: invalid questions fail as invalid_request and nothing is sent', async (kind) => {
    server.serve(fixture('decisions', 'all-types'));
    const twice: Question[] = [
      { type: 'predicate', name: 'a', instructions: 'x' },
      { type: 'predicate', name: 'a', instructions: 'y' },
    ];
    const error = await failure(judge({ kind, baseUrl: server.base, key }, 'm', 'mail', twice));
    expect(error.code).toBe('invalid_request');
    expect(error.providerDetail).toBe('Two questions are named "a"; each name must be unique.');
    expect(server.received).toHaveLength(0);
  });

  test.each(kinds)('%s: no model is invalid_request and nothing is sent', async (kind) => {
    const error = await failure(
      judge({ kind, baseUrl: server.base, key }, ' ', 'mail', questions('support')),
    );
    expect(error.code).toBe('invalid_request');
    expect(server.received).toHaveLength(0);
  });

  test('System One refuses "true" next to true before sending; Decisions sends the same question', async () => {
    const flag = questions('true-twice');
    const error = await failure(judge({ kind: 'systemone', baseUrl: server.base, key }, 'm', 'mail', flag));
    expect(error.code).toBe('invalid_request');
    expect(error.providerDetail).toContain('cannot tell apart');
    expect(server.received).toHaveLength(0);

    server.serve({
      status: 200,
      headers: { 'content-type': 'application/json' },
      body: Buffer.from('{"answers":[{"type":"choice","name":"flag","choice":"true"}]}'),
    });
    const result = await judge({ kind: 'decisions', baseUrl: server.base, key }, 'm', 'mail', flag);
    expect(result.answers).toEqual([{ type: 'choice', name: 'flag', choice: 'true' }]);
  });

  test('a Stop before the request is cancelled, and nothing is sent', async () => {
    const controller = new AbortController();
    controller.abort();
    for (const kind of ['decisions', 'openai'] as const) {
      const error = await failure(
        judge({ kind, baseUrl: server.base, key }, 'm', 'mail', questions('support'), {
          signal: controller.signal,
        }),
      );
      expect(error.code).toBe('cancelled');
    }
    expect(server.received).toHaveLength(0);
  });
});

describe('question names', () => {
  // Names the real Decisions API answered: a dot and capitals are the service's business, not Skimmer's.
  test('Decisions sends "Ticket.urgent" and "customer.vip" as written and matches the answers by them', async () => {
    server.serve(fixture('decisions', 'recorded-names'));
    const result = await judge(
      { kind: 'decisions', baseUrl: server.base, key },
      'gpt-6-luna',
      'mail',
      questions('recorded-names'),
    );
    const sent = JSON.parse(server.received[0]?.body ?? '{}') as { questions: { name: string }[] };
    expect(sent.questions.map((q) => q.name)).toEqual(['Ticket.urgent', 'customer.vip']);
    expect(result.answers.map((a) => a.name)).toEqual(['Ticket.urgent', 'customer.vip']);
  });

  test('System One sends the same names as its map keys, as written', async () => {
    server.serve(fixture('systemone', 'recorded-names'));
    const result = await judge(
      { kind: 'systemone', baseUrl: server.base, key },
      'jev-latest',
      'mail',
      questions('recorded-names'),
    );
    const sent = JSON.parse(server.received[0]?.body ?? '{}') as { questions: Record<string, unknown> };
    expect(Object.keys(sent.questions)).toEqual(['Ticket.urgent', 'customer.vip']);
    expect(result.answers.map((a) => a.name)).toEqual(['Ticket.urgent', 'customer.vip']);
  });
});

describe('the kind decides the format, never the URL', () => {
  // Both shapes are served at paths named /decisions (wire-formats §4.5): the path proves nothing.
  const base = () => `${server.base}/api/alpha/decisions`;

  test("kind systemone sends the System One body to a gateway's /decisions route (OpenRouter's)", async () => {
    server.serve(fixture('systemone', 'all-types'));
    const result = await judge(
      { kind: 'systemone', baseUrl: base(), key },
      'jev-latest',
      'mail',
      questions('support'),
    );
    const sent = JSON.parse(server.received[0]?.body ?? '{}') as Record<string, unknown>;
    expect(server.received[0]?.url).toBe('/v1/api/alpha/decisions');
    expect(sent.state).toBe('mail');
    expect(Array.isArray(sent.questions)).toBe(false);
    expect(result.requestId).toBe('ts_req_all01');
  });

  test('kind decisions sends the OpenAI body to the same base', async () => {
    server.serve(fixture('decisions', 'all-types'));
    const result = await judge(
      { kind: 'decisions', baseUrl: base(), key },
      'gpt-6-luna',
      'mail',
      questions('support'),
    );
    const sent = JSON.parse(server.received[0]?.body ?? '{}') as Record<string, unknown>;
    expect(server.received[0]?.url).toBe('/v1/api/alpha/decisions/decisions');
    expect(sent.input).toBe('mail');
    expect(Array.isArray(sent.questions)).toBe(true);
    expect(result.requestId).toBe('req_dec_all01');
  });

  test('an answer in the other format’s shape is a bad answer, not a guess', async () => {
    server.serve(fixture('systemone', 'all-types'));
    const error = await failure(
      judge({ kind: 'decisions', baseUrl: server.base, key }, 'm', 'mail', questions('support')),
    );
    expect(error.code).toBe('bad_answer');
  });
});

describe('keys and what the server says about itself', () => {
  test('without a key no Authorization header is sent (a local server)', async () => {
    server.serve(fixture('decisions', 'all-types'));
    await judge({ kind: 'decisions', baseUrl: server.base, key: null }, 'm', 'mail', questions('support'));
    expect(server.received[0]?.headers.authorization).toBeUndefined();
  });

  test.each([
    ['a request id of 300 characters', { 'x-request-id': 'r'.repeat(300) }, null],
    ['a request id with a space', { 'x-request-id': 'req 1' }, null],
    ['a request id with non-ASCII', { 'x-request-id': 'req_\u00e9' }, null],
    ['a plain request id', { 'x-request-id': 'req_abc-123' }, 'req_abc-123'],
  ])('keeps the request id only when printable: %s', async (_name, headers, expected) => {
    const all = fixture('decisions', 'all-types');
    server.serve({ ...all, headers: { 'content-type': 'application/json', ...headers } });
    const result = await judge(
      { kind: 'decisions', baseUrl: server.base, key },
      'm',
      'mail',
      questions('support'),
    );
    expect(result.requestId).toBe(expected);
  });

  test('a served model name with control characters is replaced by the one asked for', async () => {
    const body = JSON.parse(fixture('systemone', 'all-types').body.toString('utf8')) as Record<
      string,
      unknown
    >;
    server.serve({
      status: 200,
      headers: { 'content-type': 'application/json' },
      body: Buffer.from(JSON.stringify({ ...body, model: 'jev\u001b[31m-evil' })),
    });
    const result = await judge(
      { kind: 'systemone', baseUrl: server.base, key },
      'jev-latest',
      'x',
      questions('support'),
    );
    expect(result.model).toBe('jev-latest');
  });

  test('a retried 529 is announced through onRetry and the answer that follows is returned', async () => {
    let n = 0;
    const overloaded = fixture('systemone', 'http-529');
    const answered = fixture('systemone', 'all-types');
    const retries: string[] = [];
    const fetchThenAnswer: typeof fetch = (input, init) => {
      n++;
      server.serve(n === 1 ? overloaded : answered);
      return fetch(input, init);
    };
    const result = await judge(
      { kind: 'systemone', baseUrl: server.base, key },
      'jev-latest',
      'x',
      questions('support'),
      {
        fetch: fetchThenAnswer,
        sleep: async () => {},
        onRetry: (info) => retries.push(`${info.code} after ${info.attempt}, wait ${info.waitMs}`),
      },
    );
    expect(retries).toEqual(['unavailable after 1, wait 500']);
    expect(result.requestId).toBe('ts_req_all01');
    expect(server.received).toHaveLength(2);
  });
});
