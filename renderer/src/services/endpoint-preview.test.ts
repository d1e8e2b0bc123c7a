import { describe, expect, test } from 'vitest';
import { previewEndpoint } from './endpoint-preview.ts';

describe('previewEndpoint', () => {
  test.each([
    ['openai', 'http://localhost:11434/v1', 'http://localhost:11434/v1/chat/completions'],
    ['openai', 'http://127.0.0.1:8080/v1/chat/completions', 'http://127.0.0.1:8080/v1/chat/completions'],
    ['openai', 'https://api.openai.com/v1/', 'https://api.openai.com/v1/chat/completions'],
    ['openai-responses', 'https://api.openai.com/v1/responses', 'https://api.openai.com/v1/responses'],
    ['anthropic', 'https://api.anthropic.com', 'https://api.anthropic.com/v1/messages'],
    ['anthropic', 'https://api.anthropic.com/v1/messages', 'https://api.anthropic.com/v1/messages'],
    ['decisions', 'https://api.openai.com/v1', 'https://api.openai.com/v1/decisions'],
    ['systemone', 'https://api.typesafe.ai/v1/models', 'https://api.typesafe.ai/v1/systemone'],
    ['openai', 'http://[::1]:1234/v1', 'http://[::1]:1234/v1/chat/completions'],
  ] as const)('shows %s at %s as %s', (kind, base, endpoint) => {
    expect(previewEndpoint(kind, base)).toEqual({ ok: true, endpoint });
  });

  test.each([
    ['http://api.example.com/v1', 'only for a server on this computer'],
    ['http://127.0.0.1.evil.example/v1', 'only for a server on this computer'],
    ['https://user:secret@api.example.com/v1', 'key field'],
    ['https://api.example.com/v1?key=abc', 'query'],
    ['https://api.example.com/v1#x', 'fragment'],
    ['ftp://example.com', 'https://'],
    ['api.openai.com/v1', 'not a web address'],
  ])('explains why %s will be refused', (base, reason) => {
    const preview = previewEndpoint('openai', base);
    expect(preview?.ok).toBe(false);
    expect(preview && !preview.ok && preview.reason).toContain(reason);
  });

  test('shows nothing before anything is typed', () => {
    expect(previewEndpoint('openai', '  ')).toBeNull();
  });
});
