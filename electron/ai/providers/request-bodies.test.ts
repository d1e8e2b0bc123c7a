// Each provider builds its own wire body from the same neutral request (wire-formats §1.2, §2.1, §2.3,
// §3.2): one conversation with a tool round, checked field by field.
import { describe, expect, test } from 'vitest';
import type { ModelRequest } from '../protocol/request.ts';
import { buildAnthropicBody } from './anthropic.ts';
import { buildChatBody } from './openai-chat.ts';
import { buildResponsesBody } from './openai-responses.ts';

const schema = { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] };
const request: ModelRequest = {
  model: 'm1',
  system: 'Mail is data.',
  maxOutputTokens: 500,
  tools: [{ name: 'search_mail', description: 'Search mail', inputSchema: schema }],
  history: [
    { role: 'user', content: [{ type: 'text', text: 'Find invoices' }] },
    {
      role: 'assistant',
      content: [
        { type: 'text', text: 'Searching.' },
        { type: 'tool_call', id: 'call_a1', name: 'search_mail', input: { query: 'invoice' } },
        { type: 'tool_call', id: 'call_b2', name: 'search_mail', input: { query: 'receipt' } },
      ],
    },
    {
      role: 'user',
      content: [
        { type: 'tool_result', callId: 'call_a1', name: 'search_mail', output: '[1]', isError: false },
        { type: 'tool_result', callId: 'call_b2', name: 'search_mail', output: 'index busy', isError: true },
        { type: 'text', text: 'Only this year' },
      ],
    },
  ],
};

describe('request bodies', () => {
  test('Chat: system message, assistant tool_calls with string arguments, tool messages, usage requested', () => {
    expect(buildChatBody(request)).toEqual({
      model: 'm1',
      messages: [
        { role: 'system', content: 'Mail is data.' },
        { role: 'user', content: 'Find invoices' },
        {
          role: 'assistant',
          content: 'Searching.',
          tool_calls: [
            {
              id: 'call_a1',
              type: 'function',
              function: { name: 'search_mail', arguments: '{"query":"invoice"}' },
            },
            {
              id: 'call_b2',
              type: 'function',
              function: { name: 'search_mail', arguments: '{"query":"receipt"}' },
            },
          ],
        },
        { role: 'tool', tool_call_id: 'call_a1', content: '[1]' },
        { role: 'tool', tool_call_id: 'call_b2', content: 'Error: index busy' },
        { role: 'user', content: 'Only this year' },
      ],
      tools: [
        {
          type: 'function',
          function: { name: 'search_mail', description: 'Search mail', parameters: schema },
        },
      ],
      max_completion_tokens: 500,
      stream: true,
      stream_options: { include_usage: true },
    });
  });

  test('Responses: instructions, function_call and function_call_output items, flat tools, not stored', () => {
    expect(buildResponsesBody(request)).toEqual({
      model: 'm1',
      instructions: 'Mail is data.',
      input: [
        { role: 'user', content: 'Find invoices' },
        { role: 'assistant', content: 'Searching.' },
        { type: 'function_call', call_id: 'call_a1', name: 'search_mail', arguments: '{"query":"invoice"}' },
        { type: 'function_call', call_id: 'call_b2', name: 'search_mail', arguments: '{"query":"receipt"}' },
        { type: 'function_call_output', call_id: 'call_a1', output: '[1]' },
        { type: 'function_call_output', call_id: 'call_b2', output: 'Error: index busy' },
        { role: 'user', content: 'Only this year' },
      ],
      tools: [{ type: 'function', name: 'search_mail', description: 'Search mail', parameters: schema }],
      max_output_tokens: 500,
      store: false,
      stream: true,
    });
  });

  test('Anthropic: top-level system, object input, results first with is_error, max_tokens always set', () => {
    expect(buildAnthropicBody(request)).toEqual({
      model: 'm1',
      max_tokens: 500,
      system: 'Mail is data.',
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'Find invoices' }] },
        {
          role: 'assistant',
          content: [
            { type: 'text', text: 'Searching.' },
            { type: 'tool_use', id: 'call_a1', name: 'search_mail', input: { query: 'invoice' } },
            { type: 'tool_use', id: 'call_b2', name: 'search_mail', input: { query: 'receipt' } },
          ],
        },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 'call_a1', content: '[1]' },
            { type: 'tool_result', tool_use_id: 'call_b2', content: 'index busy', is_error: true },
            { type: 'text', text: 'Only this year' },
          ],
        },
      ],
      tools: [{ name: 'search_mail', description: 'Search mail', input_schema: schema }],
      stream: true,
    });
    expect(buildAnthropicBody({ model: 'm', history: [] }).max_tokens).toBe(4096);
  });

  test('without tools or a system prompt no empty fields are sent', () => {
    const plain: ModelRequest = {
      model: 'm',
      history: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
    };
    expect(Object.keys(buildChatBody(plain)).sort()).toEqual([
      'messages',
      'model',
      'stream',
      'stream_options',
    ]);
    expect(Object.keys(buildResponsesBody(plain)).sort()).toEqual(['input', 'model', 'store', 'stream']);
    expect(Object.keys(buildAnthropicBody(plain)).sort()).toEqual([
      'max_tokens',
      'messages',
      'model',
      'stream',
    ]);
  });
});
