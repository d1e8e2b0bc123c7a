// The MCP stdio transport's answers to lines it cannot take, over real streams: an over-long line is answered
// with its request's id wherever the id stands among the top-level keys, and an "id" inside a nested object or
// a string is not taken for it.
import { PassThrough } from 'node:stream';
import { describe, expect, test } from 'vitest';
import { StdioLines } from './stdio-lines.ts';

const big = 'q'.repeat(1024 * 1024 + 10);

/** Writes `chunks` to a transport and returns the replies it wrote, once it has written `count`. */
async function repliesTo(chunks: (string | Buffer)[], count: number): Promise<Record<string, unknown>[]> {
  const input = new PassThrough();
  const output = new PassThrough();
  const transport = new StdioLines(input, output);
  const replies: Record<string, unknown>[] = [];
  let buffer = '';
  const got = new Promise<void>((resolve) => {
    output.on('data', (chunk: Buffer) => {
      buffer += chunk.toString('utf8');
      for (let end = buffer.indexOf('\n'); end !== -1; end = buffer.indexOf('\n')) {
        replies.push(JSON.parse(buffer.slice(0, end)) as Record<string, unknown>);
        buffer = buffer.slice(end + 1);
      }
      if (replies.length >= count) resolve();
    });
  });
  await transport.start();
  for (const c of chunks) input.write(c);
  await got;
  await transport.close();
  return replies;
}

const oversize = (value: Record<string, unknown> | string) =>
  `${typeof value === 'string' ? value : JSON.stringify(value)}\n`;

describe('StdioLines and a line over 1 MiB', () => {
  test.each([
    ['between other keys', { jsonrpc: '2.0', method: 'tools/call', id: 41, params: { q: big } }, 41],
    ['a string id in the middle', { jsonrpc: '2.0', id: 'a"b\\c', params: { q: big }, x: 1 }, 'a"b\\c'],
    ['first', { id: -3, jsonrpc: '2.0', params: { q: big } }, -3],
    ['last, after a long value', { jsonrpc: '2.0', params: { q: big }, id: 2.5e3 }, 2500],
    [
      'after a nested "id" and a string that spells one',
      { jsonrpc: '2.0', note: '","id":6,"', params: { id: 5, list: [{ id: 4 }], q: big }, id: 7, more: {} },
      7,
    ],
    ['with escapes in the key', `{"jsonrpc":"2.0","\\u0069d":9,"params":{"q":"${big}"}}`, 9],
    ['after whitespace and a CR', ` { "jsonrpc" : "2.0" , "params":{"q":"${big}"} ,\t"id" :\t 12 } \r`, 12],
    [
      'after a long string of escapes',
      { jsonrpc: '2.0', params: { q: '"\\\n'.repeat(400_000) }, id: 13 },
      13,
    ],
    ['given twice: the last, as JSON.parse reads it', `{"id":1,"params":{"q":"${big}"},"id":2}`, 2],
    ['none at the top level', { jsonrpc: '2.0', params: { id: 5, q: big } }, null],
    ['an id that is not a string or a number', { jsonrpc: '2.0', id: { n: 1 }, params: { q: big } }, null],
  ])('answers -32600 with the id: %s', async (_name, message, id) => {
    const [reply] = await repliesTo([oversize(message)], 1);
    expect(reply).toEqual({ jsonrpc: '2.0', id, error: { code: -32600, message: expect.any(String) } });
  });

  test('finds the id when the line arrives in pieces cut inside the key, the value and a character', async () => {
    const line = Buffer.from(
      `{"jsonrpc":"2.0","params":{"q":"${big}ü"},"id":"é-12345","method":"tools/call"}\n`,
      'utf8',
    );
    const at = line.indexOf('"id"');
    const umlaut = line.indexOf('ü');
    const cuts = [0, 700_000, umlaut + 1, at + 2, at + 6, at + 8, line.length];
    const pieces = cuts.slice(1).map((end, i) => line.subarray(cuts[i], end));
    const [reply] = await repliesTo(pieces, 1);
    expect(reply).toMatchObject({ id: 'é-12345', error: { code: -32600 } });
  });

  test('reads on after an oversize line: the next one is a message again', async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    const transport = new StdioLines(input, output);
    const messages: unknown[] = [];
    transport.onmessage = (m) => messages.push(m);
    await transport.start();
    input.write(oversize({ jsonrpc: '2.0', params: { q: big }, method: 'x', id: 1 }));
    input.write(`${JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' })}\n`);
    await expect.poll(() => messages).toEqual([{ jsonrpc: '2.0', id: 2, method: 'tools/list' }]);
    await transport.close();
  });
});
