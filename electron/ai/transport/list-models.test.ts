import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, test } from 'vitest';
import { AiFailure } from '../protocol/errors.ts';
import { listModels, testConnection } from './list-models.ts';

const seen: { url: string; headers: IncomingHttpHeaders }[] = [];
let reply: { status: number; body: string } = { status: 200, body: '{}' };
const server = createServer((req, res) => {
  seen.push({ url: req.url ?? '', headers: req.headers });
  res.writeHead(reply.status, { 'content-type': 'application/json' });
  res.end(reply.body);
});
await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
afterAll(() => new Promise<void>((r) => server.close(() => r())));

describe('model lists over the wire', () => {
  test('asks the models endpoint with the kind’s own auth header', async () => {
    reply = { status: 200, body: JSON.stringify({ data: [{ id: 'm1' }] }) };
    expect(await listModels({ kind: 'anthropic', baseUrl: base }, 'key-anthropic-123')).toEqual({
      ok: true,
      models: ['m1'],
    });
    const last = seen.at(-1);
    expect(last?.url).toBe('/v1/models');
    expect(last?.headers['x-api-key']).toBe('key-anthropic-123');
    expect(last?.headers.authorization).toBeUndefined();
    await listModels({ kind: 'openai', baseUrl: base }, 'key-openai-123');
    expect(seen.at(-1)?.headers.authorization).toBe('Bearer key-openai-123');
  });

  test('a 401 that echoes the key fails as unauthorized without the key', async () => {
    reply = {
      status: 401,
      body: JSON.stringify({
        error: { message: 'bad key sk-test-canary-0011223344', type: 'invalid_request_error' },
      }),
    };
    const failure = await listModels({ kind: 'openai', baseUrl: base }, 'sk-test-canary-0011223344').catch(
      (e: unknown) => e,
    );
    expect(failure).toBeInstanceOf(AiFailure);
    expect((failure as AiFailure).code).toBe('unauthorized');
    expect(JSON.stringify(failure)).not.toContain('canary');
  });

  test.each([
    [200, JSON.stringify({ data: [{ id: 'a' }, { id: 'b' }] }), true, 'offers 2 models'],
    [200, JSON.stringify({ nothing: true }), true, 'does not list its models'],
    [404, '{}', true, 'no model list here'],
    [
      401,
      JSON.stringify({ error: { message: 'bad key', type: 'invalid_request_error' } }),
      false,
      'did not accept the API key',
    ],
    [500, '{}', false, 'overloaded or down'],
  ])('Test connection reads status %i as ok=%s', async (status, body, ok, message) => {
    reply = { status, body };
    const before = seen.length;
    const result = await testConnection({ kind: 'openai', baseUrl: base }, 'key-test-123456');
    expect(result.ok).toBe(ok);
    expect(result.message).toContain(message);
    expect(seen.length - before).toBe(1); // an explicit check is never retried
  });

  test('Test connection to a port nobody listens on says it could not reach the service', async () => {
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((r) => closed.close(() => r()));
    const result = await testConnection({ kind: 'openai', baseUrl: `http://127.0.0.1:${port}/v1` }, null);
    expect(result).toEqual({ ok: false, message: 'Skimmer could not reach the service.' });
  });
});
