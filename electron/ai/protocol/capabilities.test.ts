import { describe, expect, test } from 'vitest';
import { capabilitiesFor, families, familyKey, preflight, preflightMessages } from './capabilities.ts';

describe('familyKey', () => {
  test.each([
    ['drops an Ollama tag', 'qwen3:8b', 'qwen3'],
    [
      'drops the organisation of a Hugging Face id and lowercases it',
      'meta-llama/Llama-3.2-3B-Instruct',
      'llama-3.2-3b-instruct',
    ],
    ['drops a registry path and a quantization tag', 'hf.co/bartowski/Qwen3-8B-GGUF:Q4_K_M', 'qwen3-8b-gguf'],
    ['drops an OpenRouter route', 'anthropic/claude-sonnet-4.5', 'claude-sonnet-4.5'],
    [
      'drops the fine-tune prefix and suffix',
      'ft:gpt-4o-mini-2024-07-18:acme::abc123',
      'gpt-4o-mini-2024-07-18',
    ],
    ['trims surrounding space', '  GPT-4.1  ', 'gpt-4.1'],
  ])('%s', (_name, modelId, expected) => {
    expect(familyKey(modelId)).toBe(expected);
  });
});

describe('capabilitiesFor', () => {
  test.each([
    ['gpt-4.1', 'gpt-4.1', true, true, 1_047_576],
    ['gpt-4.1-mini', 'gpt-4.1', true, true, 1_047_576],
    ['gpt-4o-2024-08-06', 'gpt-4o', true, true, 128_000],
    ['gpt-4o-mini', 'gpt-4o', true, true, 128_000],
    ['openai/gpt-4.1-nano', 'gpt-4.1', true, true, 1_047_576],
    ['o3', 'o3', true, true, 200_000],
    ['o3-mini', 'o3', true, true, 200_000],
    ['o4-mini-2025-04-16', 'o4-mini', true, true, 200_000],
    ['o1-mini', 'o1-mini', false, false, 128_000],
    ['claude-sonnet-4-5-20250929', 'claude-sonnet-4-5', true, true, 200_000],
    ['claude-sonnet-4-20250514', 'claude-sonnet-4', true, true, 200_000],
    ['claude-opus-4-1-20250805', 'claude-opus-4', true, true, 200_000],
    ['claude-3-5-haiku@20241022', 'claude-3-5-haiku', true, true, 200_000],
    ['anthropic/claude-sonnet-4.5', 'claude-sonnet-4-5', true, true, 200_000],
    ['llama3.2', 'llama3.2', true, false, 128_000],
    ['llama3.2:3b', 'llama3.2', true, false, 128_000],
    ['meta-llama/Llama-3.2-3B-Instruct', 'llama3.2', true, false, 128_000],
    ['llama3.2-vision:11b', 'llama3.2-vision', false, false, 128_000],
    ['llama3:8b', 'llama3', false, false, 8_192],
    ['Meta-Llama-3.1-8B-Instruct', 'llama3.1', true, false, 128_000],
    ['qwen3:8b', 'qwen3', true, false, 40_960],
    ['Qwen/Qwen3-30B-A3B', 'qwen3', true, false, 40_960],
    ['qwen2.5-coder:7b', 'qwen2.5', true, false, 32_768],
    ['gemma3:4b', 'gemma3', false, false, 32_768],
    ['google/gemma-3-12b-it', 'gemma3', false, false, 32_768],
    ['mistral:7b', 'mistral', true, false, 32_768],
    ['mistralai/Mistral-7B-Instruct-v0.3', 'mistral', true, false, 32_768],
    ['phi3', 'phi3', false, false, 4_096],
    ['phi4:14b', 'phi4', false, false, 16_384],
    ['phi4-mini', 'phi4-mini', true, false, 128_000],
    ['gpt-oss:20b', 'gpt-oss', true, false, 131_072],
  ])('knows %s as %s', (modelId, family, tools, parallelTools, maxInputTokens) => {
    expect(capabilitiesFor(modelId)).toEqual({ known: true, family, tools, parallelTools, maxInputTokens });
  });

  test.each([
    ['a model not in the table', 'granite3.3:8b'],
    ['a family name followed by more letters', 'gemma3n:e4b'],
    ['a newer version after a dot', 'qwen3.5'],
    ['an older version than the table has', 'gpt-4'],
    ['a name that only contains a known family', 'my-llama3.2'],
    ['an empty id', ''],
  ])('does not know %s', (_name, modelId) => {
    expect(capabilitiesFor(modelId)).toEqual({
      known: false,
      family: null,
      tools: 'unknown',
      parallelTools: false,
      maxInputTokens: null,
    });
  });

  test('takes a service mark as tool support for an unknown model, without parallel calls or a size', () => {
    expect(capabilitiesFor('granite3.3:8b', { markedToolCapable: true })).toEqual({
      known: false,
      family: null,
      tools: true,
      parallelTools: false,
      maxInputTokens: null,
    });
  });

  test('lets a service mark win over a table entry that says no tools', () => {
    expect(capabilitiesFor('gemma3-tools:4b', { markedToolCapable: true })).toMatchObject({
      known: true,
      family: 'gemma3',
      tools: true,
      parallelTools: false,
    });
  });
});

describe('preflight', () => {
  const refused = (message: string) => ({ ok: false, code: 'unsupported_capability', message });
  test.each([
    ['allows plain chat with an unknown model', 'granite3.3:8b', { usesTools: false }, { ok: true }],
    [
      'allows plain chat with a model that cannot call tools',
      'gemma3:4b',
      { usesTools: false },
      { ok: true },
    ],
    ['allows tools with a model known to call them', 'qwen3:8b', { usesTools: true }, { ok: true }],
    [
      'refuses tools with a model known not to call them',
      'gemma3:4b',
      { usesTools: true },
      refused(preflightMessages.noTools),
    ],
    [
      'refuses tools with an unknown model the service has not marked',
      'granite3.3:8b',
      { usesTools: true },
      refused(preflightMessages.unknownTools),
    ],
    [
      'refuses tools with an unknown model the service marked as not tool-capable',
      'granite3.3:8b',
      { usesTools: true, markedToolCapable: false },
      refused(preflightMessages.unknownTools),
    ],
    [
      'allows tools with an unknown model the service marked as tool-capable',
      'granite3.3:8b',
      { usesTools: true, markedToolCapable: true },
      { ok: true },
    ],
    [
      'allows tools with a model the table says no to, when the service marked it',
      'gemma3-tools:4b',
      { usesTools: true, markedToolCapable: true },
      { ok: true },
    ],
  ])('%s', (_name, modelId, opts, expected) => {
    expect(preflight(modelId, opts)).toEqual(expected);
  });
});

describe('the capability table', () => {
  const spellings = families.flatMap((f) => f.ids.map((id) => [id, f.family] as const));

  test.each(spellings)('resolves its spelling %s to %s', (id, family) => {
    expect(capabilitiesFor(id).family).toBe(family);
  });

  test.each(spellings)('writes %s the way familyKey leaves an id', (id) => {
    expect(familyKey(id)).toBe(id);
  });

  test('lists each spelling once', () => {
    const ids = spellings.map(([id]) => id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  test.each(families.map((f) => [f.family, f] as const))(
    'gives %s a positive size and no parallel calls without tools',
    (_family, f) => {
      expect(Number.isInteger(f.maxInputTokens) && f.maxInputTokens > 0).toBe(true);
      expect(f.parallelTools && !f.tools).toBe(false);
    },
  );
});
