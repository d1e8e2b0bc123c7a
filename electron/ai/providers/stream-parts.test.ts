import { describe, expect, test } from 'vitest';
import { completeCall, readFrame } from './stream-parts.ts';

const notice = { type: 'error', code: 'malformed_stream', terminal: false };

describe('completing a tool call', () => {
  test('parses the argument text once, and empty text is {}', () => {
    expect(completeCall('call_a1', 'search_mail', '{"query":"x"}')).toEqual({
      type: 'tool_call_complete',
      callId: 'call_a1',
      name: 'search_mail',
      input: { query: 'x' },
    });
    expect(completeCall('call_b2', 'list_labels', ' ')).toMatchObject({ input: {} });
  });

  test('drops a call whose text is not a JSON object with a non-terminal notice', () => {
    expect(completeCall('call_a1', 'search_mail', '{"query":')).toMatchObject(notice);
    expect(completeCall('call_a1', 'search_mail', '[1]')).toMatchObject(notice);
  });

  test('drops a call that never got a name, since no tool can run it and a stored call names its tool', () => {
    expect(completeCall('call_a1', '', '{}')).toMatchObject(notice);
  });
});

describe('reading a frame', () => {
  test.each(['{"type":"ping"}', '{}'])('%s is an object', (data) => {
    expect(readFrame(data)).toEqual(JSON.parse(data));
  });

  test.each(['null', '42', '"text"', '[]', '{"a":', ''])('%j is not a frame', (data) => {
    expect(readFrame(data)).toBeNull();
  });
});
