import { describe, expect, test } from 'vitest';
import { authHeaders, readModelList } from './model-lists.ts';

describe('model lists', () => {
  test.each([
    [
      'openai',
      { object: 'list', data: [{ id: 'gpt-b', object: 'model' }, { id: 'gpt-a' }] },
      ['gpt-b', 'gpt-a'],
    ],
    [
      'anthropic',
      { data: [{ type: 'model', id: 'claude-x', display_name: 'X' }], has_more: false },
      ['claude-x'],
    ],
    ['systemone', { models: [{ name: 'jev-latest', release_date: '2026-09-15' }] }, ['jev-latest']],
  ] as const)('reads the %s list shape', (kind, body, models) => {
    expect(readModelList(kind, body)).toEqual(models);
  });

  test('says when a service has no usable list', () => {
    expect(readModelList('openai', { models: [] })).toBeNull();
  });

  test('without a key no auth header is sent', () => {
    expect(authHeaders('openai', null)).toEqual({});
    expect(authHeaders('anthropic', null)).toEqual({ 'anthropic-version': '2023-06-01' });
  });
});
