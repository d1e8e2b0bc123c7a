// A scripted model for tests: a real server on loopback that answers each request as the test's script says,
// and the OpenAI Chat Completions stream pieces scripts are written in (`data:` frames of
// `chat.completion.chunk`s, then `[DONE]`; wire-formats §1). A reply is a whole body, or a stall: one that
// starts and then says nothing more until the client gives up.
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One chunk frame with one choice: a piece of the answer (`delta`) and, on the last, why it ended. */
export const chatChunk = (delta: object, finish: string | null = null): string =>
  `data: ${JSON.stringify({ choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;

const chatDone = 'data: [DONE]\n\n';

export type ScriptedCall = { id: string; name: string; args: object };

/** A round that calls these tools, every call whole in one chunk, under the ids given (repeats and all). */
export function toolCallsBody(calls: readonly ScriptedCall[]): string {
  const toolCalls = calls.map((c, index) => ({
    index,
    id: c.id,
    type: 'function',
    function: { name: c.name, arguments: JSON.stringify(c.args) },
  }));
  return chatChunk({ role: 'assistant', tool_calls: toolCalls }) + chatChunk({}, 'tool_calls') + chatDone;
}

type Usage = { prompt_tokens: number; completion_tokens: number; total_tokens: number };

/** A plain answer; with `usage`, the usage chunk OpenAI sends last when asked for it. */
export function wordsBody(text: string, usage?: Usage): string {
  const usageChunk = usage ? `data: ${JSON.stringify({ choices: [], usage })}\n\n` : '';
  return chatChunk({ role: 'assistant', content: text }) + chatChunk({}, 'stop') + usageChunk + chatDone;
}

type Stall = { stall: string };

/** A reply that sends `start` and then stays silent, until the client gives up. */
export const stalled = (start: string): Stall => ({ stall: start });

export type Reply = string | Buffer | Stall;

export type ScriptedModel<B> = {
  // The server's `/v1` address, as a service's base URL.
  base: string;
  // Every request's JSON body, in order.
  bodies: B[];
  close(): Promise<void>;
};

/**
 * Serves `answer` on loopback: each request's JSON body is recorded and handed to `answer` with the request,
 * and its reply is sent as `text/event-stream`. No reply (the script ran out) is a 500 with an OpenAI error
 * body, so a test that asked more than it scripted fails on it.
 */
export async function serveScript<B = Record<string, unknown>>(
  answer: (body: B, req: IncomingMessage) => Reply | undefined,
): Promise<ScriptedModel<B>> {
  const bodies: B[] = [];
  const server = createServer(async (req, res) => {
    let raw = '';
    for await (const piece of req) raw += piece;
    const body = JSON.parse(raw || '{}') as B;
    bodies.push(body);
    const reply = answer(body, req);
    if (reply === undefined) {
      res.writeHead(500, { 'content-type': 'application/json' }).end('{"error":{"message":"no script"}}');
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    if (typeof reply === 'object' && 'stall' in reply) res.write(reply.stall);
    else res.end(reply);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    bodies,
    close() {
      // A stalled reply holds its connection open until the client gives up; the test is done waiting.
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
