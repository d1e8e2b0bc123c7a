import { describe, expect, test } from 'vitest';
import type { ServiceModels } from '../../../shared/contract/index.ts';
import { canChat } from '../chat/model-ref.ts';
import { modelOptions } from './model-options.ts';

const lists: ServiceModels[] = [
  { service: 'dec', kind: 'decisions', models: ['gpt-6-luna'], listedAt: 1 },
  { service: 'local', kind: 'openai', models: ['llama3.2', 'qwen3:8b'], listedAt: 2 },
  { service: 'work', kind: 'anthropic', models: null, listedAt: null },
];

describe('model options', () => {
  test('put the default first, then used models, listed models and service names, each once', () => {
    expect(
      modelOptions({ defaultModel: 'local/qwen3:8b', used: ['local/llama3.2', 'local/qwen3:8b'], lists }),
    ).toEqual(['local/qwen3:8b', 'local/llama3.2', 'dec/gpt-6-luna', 'dec/', 'local/', 'work/']);
  });

  test('offer only services that can chat where a chat model is needed', () => {
    expect(modelOptions({ defaultModel: null, used: [], lists, kinds: canChat })).toEqual([
      'local/llama3.2',
      'local/qwen3:8b',
      'local/',
      'work/',
    ]);
  });
});
