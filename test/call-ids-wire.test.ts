// Skimmer's own call ids over every wire format (issue 13): a real local server streams the corpus's rounds
// whose provider ids repeat (`call_same` twice), are empty, or come again in the next round (`call_a1` of
// tool-call.body, twice). Each call must get an id of its own, an answer must decide only the call it names,
// and the provider must get every result paired with the call it answers, under an id no other call has.
import { afterAll, describe, expect, test } from 'vitest';
import { z } from 'zod';
import { type EngineEvent, type EngineRequest, runEngine } from '../electron/ai/chat/engine.ts';
import { assertToolPairing, type Turn } from '../electron/ai/protocol/messages.ts';
import type { AnyTool, ToolEffect } from '../electron/ai/tools/tool.ts';
import { streamModel } from '../electron/ai/transport/model-stream.ts';
import { type CorpusProvider, loadCorpus } from '../fixtures/sse/corpus.ts';
import type { ServiceKind } from '../shared/contract/index.ts';
import { serveScript } from './support/chat-script.ts';

let script: Buffer[] = [];
const model = await serveScript(() => script.shift());
const { base, bodies: requests } = model;
afterAll(() => model.close());

const ran: string[] = [];
const tool = (name: string, effect: ToolEffect): AnyTool => ({
  name,
  description: `The ${name} tool.`,
  schema: z.record(z.string(), z.unknown()),
  effect,
  async run() {
    ran.push(name);
    return { output: `${name} ran` };
  },
});

// A pair as the provider was sent it: the call's id and name, and the result's output under that id.
type WirePair = { id: string; name: string; output: string };

// The calls of the last assistant turn in a request body, and the results that answer them, per wire format.
function wirePairs(provider: CorpusProvider, body: Record<string, unknown>): WirePair[] {
  if (provider === 'openai-chat') {
    type M = {
      role: string;
      tool_calls?: { id: string; function: { name: string } }[];
      tool_call_id?: string;
    };
    const messages = body.messages as (M & { content?: string })[];
    const at = messages.findLastIndex((m) => m.role === 'assistant' && m.tool_calls);
    const results = messages.slice(at + 1).filter((m) => m.role === 'tool');
    return (messages[at]?.tool_calls ?? []).map((c) => ({
      id: c.id,
      name: c.function.name,
      output: results
        .filter((r) => r.tool_call_id === c.id)
        .map((r) => String(r.content))
        .join(' | '),
    }));
  }
  if (provider === 'openai-responses') {
    type I = { type?: string; call_id?: string; name?: string; output?: string };
    const input = body.input as I[];
    const calls = input.filter((i) => i.type === 'function_call');
    const lastRound = calls.slice(-countLastRound(input));
    return lastRound.map((c) => ({
      id: c.call_id ?? '',
      name: c.name ?? '',
      output: input
        .filter((i) => i.type === 'function_call_output' && i.call_id === c.call_id)
        .map((i) => i.output)
        .join(' | '),
    }));
  }
  type B = { type: string; id?: string; name?: string; tool_use_id?: string; content?: unknown };
  const messages = body.messages as { role: string; content: B[] | string }[];
  const at = messages.findLastIndex(
    (m) => m.role === 'assistant' && Array.isArray(m.content) && m.content.some((b) => b.type === 'tool_use'),
  );
  const next = messages[at + 1]?.content;
  const results = Array.isArray(next) ? next.filter((b) => b.type === 'tool_result') : [];
  const content = messages[at]?.content;
  return (Array.isArray(content) ? content : [])
    .filter((b) => b.type === 'tool_use')
    .map((b) => ({
      id: b.id ?? '',
      name: b.name ?? '',
      output: results
        .filter((r) => r.tool_use_id === b.id)
        .map((r) => (typeof r.content === 'string' ? r.content : JSON.stringify(r.content)))
        .join(' | '),
    }));
}

// Responses input is flat: the last round is the run of function_call items before the last outputs.
function countLastRound(input: { type?: string }[]): number {
  let n = 0;
  for (let i = input.length - 1; i >= 0; i -= 1) {
    const t = input[i]?.type;
    if (t === 'function_call') n += 1;
    else if (n > 0) break;
  }
  return n;
}

const providers: [CorpusProvider, ServiceKind][] = [
  ['openai-chat', 'openai'],
  ['openai-responses', 'openai-responses'],
  ['anthropic', 'anthropic'],
];

describe.each(providers)('%s', (provider, kind) => {
  const corpus = loadCorpus(provider);
  const body = (name: string) => {
    const f = corpus.find((x) => x.name === name);
    if (!f) throw new Error(`no fixture ${provider}/${name}`);
    return f.body;
  };
  const connection = { kind, baseUrl: base, key: 'local-key-123456' };

  async function run(request: Partial<EngineRequest>) {
    const events: EngineEvent[] = [];
    for await (const e of runEngine({
      model: 'test-model',
      stream: (req, signal) => streamModel(connection, req, { signal }),
      history: [],
      tools: [],
      ...request,
    }))
      events.push(e);
    const last = events.at(-1);
    if (!last || !('turns' in last)) throw new Error('the run did not end');
    return last;
  }

  test.each(['repeated-call-ids', 'empty-call-ids'])(
    '%s: each call waits on its own, one answer decides one call, and each result pairs on the wire',
    async (fixture) => {
      script = [body(fixture)];
      requests.length = 0;
      ran.length = 0;
      const tools = [tool('mark_read', 'write'), tool('send_mail', 'send')];
      const first = await run({ prompt: 'Mark the invoice read.', tools });
      if (first.type !== 'interrupted') throw new Error(`expected interrupted, got ${first.type}`);
      expect(first.calls.map((c) => c.name)).toEqual(['mark_read', 'send_mail']);
      expect(new Set(first.calls.map((c) => c.id)).size).toBe(2);
      const [mark, send] = first.calls;
      if (!mark || !send) throw new Error('two calls expected');
      const history: Turn[] = [...first.turns];

      // Approving the mark alone: the send still waits, nothing ran, the model was not asked again.
      const second = await run({
        history,
        tools,
        answers: [{ id: mark.id, argsHash: mark.argsHash, decision: 'approve' }],
      });
      expect(second.type === 'interrupted' && second.calls.map((c) => c.id)).toEqual([send.id]);
      expect(ran).toEqual([]);
      expect(requests).toHaveLength(1);

      script = [body('text')];
      const third = await run({
        history,
        tools,
        answers: [
          { id: mark.id, argsHash: mark.argsHash, decision: 'approve' },
          { id: send.id, argsHash: send.argsHash, decision: 'deny' },
        ],
      });
      expect(third.type).toBe('done');
      expect(ran).toEqual(['mark_read']);
      expect(assertToolPairing([...history, ...third.turns])).toEqual([]);
      const pairs = wirePairs(provider, requests[1] ?? {});
      expect(pairs.map((p) => p.name)).toEqual(['mark_read', 'send_mail']);
      expect(new Set(pairs.map((p) => p.id)).size).toBe(2);
      expect(pairs.every((p) => p.id !== '')).toBe(true);
      expect(pairs[0]?.output).toContain('mark_read ran');
      expect(pairs[1]?.output).toContain('declined');
      expect(pairs[1]?.output).not.toContain('ran');
    },
  );

  test('an id the provider gives again in the next round gets an id of its own, and pairs on the wire', async () => {
    script = [body('tool-call'), body('tool-call'), body('text')];
    requests.length = 0;
    const last = await run({ prompt: 'Any invoices from Alice?', tools: [tool('search_mail', 'read')] });
    expect(last.type).toBe('done');
    const calls = last.turns.flatMap((t) => t.content.filter((b) => b.type === 'tool_call'));
    expect(calls.map((c) => c.type === 'tool_call' && c.wireId)).toEqual(['call_a1', 'call_a1']);
    expect(new Set(calls.map((c) => c.type === 'tool_call' && c.id)).size).toBe(2);
    expect(assertToolPairing(last.turns)).toEqual([]);
    // The third request carries both rounds: the first under call_a1, the second under Skimmer's id.
    const third = JSON.stringify(requests[2]);
    const second = calls[1]?.type === 'tool_call' ? calls[1].id : '';
    expect(third).toContain('call_a1');
    expect(third).toContain(second);
    expect(
      wirePairs(provider, requests[2] ?? {}).map((p) => [p.id, p.output.includes('search_mail ran')]),
    ).toEqual([[second, true]]);
  });
});
