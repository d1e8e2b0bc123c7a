import { describe, expect, test } from 'vitest';
import { isLoopback } from './loopback.ts';
import { checkBaseUrl, endpointFor } from './service-url.ts';

describe('checkBaseUrl', () => {
  test.each([
    ['https://api.openai.com/v1', 'https://api.openai.com/v1'],
    ['https://api.openai.com/v1/', 'https://api.openai.com/v1'],
    ['https://api.openai.com/v1/chat/completions', 'https://api.openai.com/v1'],
    ['  https://api.anthropic.com/v1/messages ', 'https://api.anthropic.com/v1'],
    ['https://api.anthropic.com', 'https://api.anthropic.com'],
    ['http://localhost:11434/v1', 'http://localhost:11434/v1'],
    ['http://127.0.0.1:8080/v1/responses', 'http://127.0.0.1:8080/v1'],
    ['http://[::1]:1234/v1/models', 'http://[::1]:1234/v1'],
    ['https://gateway.example.com/openai/v1/completions', 'https://gateway.example.com/openai/v1'],
    ['HTTPS://API.EXAMPLE.COM/V1', 'https://api.example.com/V1'],
  ])('accepts %s as %s', (input, base) => {
    expect(checkBaseUrl(input)).toEqual({ ok: true, baseUrl: base });
  });

  test.each([
    ['http://api.openai.com/v1', 'only for a server on this computer'],
    ['http://192.168.1.10:11434/v1', 'only for a server on this computer'],
    ['http://127.0.0.1.evil.example/v1', 'only for a server on this computer'],
    ['https://user:sk-test-x@api.example.com/v1', 'key field'],
    ['https://api.example.com/v1?key=abc', 'query'],
    ['https://api.example.com/v1#x', 'fragment'],
    ['ftp://example.com', 'https://'],
    ['file:///etc/passwd', 'https://'],
    ['api.openai.com/v1', 'not a web address'],
  ])('refuses %s', (input, reason) => {
    const r = checkBaseUrl(input);
    expect(r.ok).toBe(false);
    expect(!r.ok && r.reason).toContain(reason);
  });
});

describe('endpointFor', () => {
  test.each([
    ['openai', 'https://api.openai.com/v1', 'https://api.openai.com/v1/chat/completions'],
    ['openai-responses', 'https://api.openai.com/v1', 'https://api.openai.com/v1/responses'],
    ['anthropic', 'https://api.anthropic.com', 'https://api.anthropic.com/v1/messages'],
    ['anthropic', 'https://api.anthropic.com/v1', 'https://api.anthropic.com/v1/messages'],
    ['decisions', 'https://api.openai.com/v1', 'https://api.openai.com/v1/decisions'],
    ['systemone', 'https://api.typesafe.ai/v1', 'https://api.typesafe.ai/v1/systemone'],
  ] as const)('%s at %s posts to %s', (kind, base, endpoint) => {
    expect(endpointFor(kind, base)).toBe(endpoint);
  });

  test("keeps a System One gateway's /decisions route, and only for that kind", () => {
    const pasted = 'https://openrouter.ai/api/alpha/decisions';
    const base = checkBaseUrl(pasted, 'systemone');
    expect(base).toEqual({ ok: true, baseUrl: pasted });
    expect(endpointFor('systemone', pasted)).toBe(pasted);
    expect(endpointFor('systemone', pasted, 'models')).toBe('https://openrouter.ai/api/alpha/models');
    // The OpenAI Decisions shape at the same kind of address is still trimmed to its base.
    expect(checkBaseUrl(pasted, 'decisions')).toEqual({
      ok: true,
      baseUrl: 'https://openrouter.ai/api/alpha',
    });
    // A pasted /systemone endpoint is trimmed as before.
    expect(checkBaseUrl('https://api.typesafe.ai/v1/systemone', 'systemone')).toEqual({
      ok: true,
      baseUrl: 'https://api.typesafe.ai/v1',
    });
  });

  test('lists models beside the request endpoint', () => {
    expect(endpointFor('anthropic', 'https://api.anthropic.com', 'models')).toBe(
      'https://api.anthropic.com/v1/models',
    );
    expect(endpointFor('openai', 'http://localhost:11434/v1', 'models')).toBe(
      'http://localhost:11434/v1/models',
    );
  });
});

test.each([
  ['localhost', true],
  ['app.localhost', true],
  ['127.0.0.1', true],
  ['127.8.9.10', true],
  ['[::1]', true],
  ['10.0.0.1', false],
  ['127.0.0.1.nip.io', false],
])('isLoopback(%s) is %s', (host, expected) => {
  expect(isLoopback(host)).toBe(expected);
});
