// The engine's run loop against a scripted model server (issue 4): a real local HTTP server speaks each
// provider's wire format from the hand-written transcripts. First request: the model calls search_mail;
// second: it answers in text. The tool result must reach the model in that provider's own shape.
import { afterAll, describe, expect, test } from 'vitest';
import { z } from 'zod';
import { runEngine } from '../electron/ai/chat/engine.ts';
import { assertToolPairing } from '../electron/ai/protocol/messages.ts';
import type { Tool } from '../electron/ai/tools/tool.ts';
import { streamModel } from '../electron/ai/transport/model-stream.ts';
import { type CorpusProvider, loadCorpus } from '../fixtures/sse/corpus.ts';
import type { ServiceKind } from '../shared/contract/index.ts';
import { serveScript } from './support/chat-script.ts';

let script: Buffer[] = [];
const model = await serveScript(() => script.shift());
const { base, bodies: requests } = model;
afterAll(() => model.close());

const seenArgs: unknown[] = [];
const searchMail: Tool<{ query: string; limit: number }> = {
  name: 'search_mail',
  description: 'Search the mailbox.',
  schema: z.object({ query: z.string(), limit: z.number().int() }),
  effect: 'read',
  async run(args) {
    seenArgs.push(args);
    return { output: '[{"id":7,"subject":"Invoice 1042"}]', untrusted: true };
  },
};

const providers: [CorpusProvider, ServiceKind][] = [
  ['openai-chat', 'openai'],
  ['openai-responses', 'openai-responses'],
  ['anthropic', 'anthropic'],
];

describe.each(providers)('%s: a tool round over the wire', (provider, kind) => {
  test('runs the allowed call, sends its result back and finishes with the answer', async () => {
    const corpus = loadCorpus(provider);
    const body = (name: string) => corpus.find((f) => f.name === name)?.body ?? Buffer.alloc(0);
    script = [body('tool-call'), body('text')];
    requests.length = 0;
    seenArgs.length = 0;
    const connection = { kind, baseUrl: base, key: 'local-key-123456' };
    const run = runEngine({
      model: 'test-model',
      stream: (req, signal) => streamModel(connection, req, { signal }),
      history: [],
      prompt: 'Any invoices from Alice?',
      tools: [searchMail],
    });
    const events = [];
    for await (const e of run) events.push(e);
    expect(events.map((e) => e.type)).toEqual(
      expect.arrayContaining(['tool_call', 'tool_result', 'text', 'done']),
    );
    expect(events.at(-1)?.type).toBe('done');
    expect(seenArgs).toEqual([{ query: 'from:alice invoice', limit: 5 }]);
    const last = events.at(-1);
    if (last?.type !== 'done') return;
    expect(assertToolPairing(last.turns)).toEqual([]);
    // The second request carried the call and its (wrapped, untrusted) result in the provider's shape.
    expect(requests).toHaveLength(2);
    const second = JSON.stringify(requests[1]);
    expect(second).toContain('call_a1');
    expect(second).toContain('Invoice 1042');
    expect(second).toContain('untrusted_email');
    // The tools were offered with a JSON schema generated from the zod schema.
    expect(JSON.stringify(requests[0])).toContain('"query"');
  });
});
