import { describe, expect, test } from 'vitest';
import { isModelRef, modelSuggestions, serviceOf } from './model-ref.ts';

describe('model references', () => {
  test.each([
    ['local/llama3.2', true],
    ['openrouter/meta-llama/llama-3.1-8b', true],
    ['local/', false],
    ['/llama3.2', false],
    ['llama3.2', false],
    ['', false],
  ])('%s is a full reference: %s', (ref, expected) => {
    expect(isModelRef(ref)).toBe(expected);
  });

  test('the first slash ends the service name', () => {
    expect(serviceOf('openrouter/meta-llama/llama-3.1-8b')).toBe('openrouter');
    expect(serviceOf('local/')).toBe('local');
    expect(serviceOf('llama3.2')).toBeNull();
    expect(serviceOf('/x')).toBeNull();
  });

  test('suggests used models first, then listed ones, then service prefixes, each once', () => {
    expect(
      modelSuggestions(
        ['local/qwen3:8b', 'cloud/gpt-4.1-mini', 'local/qwen3:8b'],
        [{ service: 'local', models: ['llama3.2', 'qwen3:8b'] }],
        ['cloud', 'local'],
      ),
    ).toEqual(['local/qwen3:8b', 'cloud/gpt-4.1-mini', 'local/llama3.2', 'cloud/', 'local/']);
  });
});
