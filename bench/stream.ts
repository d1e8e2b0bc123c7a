// Streaming throughput of the OpenAI Chat path: a ~50 MB SSE transcript, generated in memory, fed in
// network-sized chunks through SSE framing (TextDecoder + eventsource-parser, as the transport frames)
// and createChatMapper. Comparison in the same process: the same bytes through the official `openai`
// package's own stream parser (`Stream.fromSSEResponse`, what `chat.completions.create({stream: true})`
// returns), a dev-only dependency. Target (issue): at least as fast as that parser.
//
// Four paths, each median of --runs after --warmup rounds, interleaved so machine noise hits all alike:
// - JSON.parse alone: every frame's data, pre-split: the floor every path pays.
// - Skimmer core: chunks → TextDecoder(stream) → eventsource-parser → createChatMapper, synchronous.
// - Skimmer transport: streamSse (the real electron/ai/transport/transport.ts: Response body reader, idle timer per
//   read, line budget, async generator per frame) with a local fetch that returns the chunks, then the
//   mapper. This is the like-for-like one: the SDK also reads a Response body through async generators.
// - openai: Stream.fromSSEResponse over a Response of the same chunks; the loop reads each chunk's text.
// Both sides JSON.parse every frame. Skimmer does more after it (neutral events, tool arguments joined
// and parsed once per call); the SDK yields the parsed chunk and does nothing else.
//
//   node bench/stream.ts [--mb 50] [--chunk 16384] [--runs 5] [--warmup 1] [--seed 1]
import { parseArgs } from 'node:util';
import { createParser } from 'eventsource-parser';
import { Stream } from 'openai/core/streaming';
import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import type { AiEvent } from '../electron/ai/protocol/events.ts';
import { createChatMapper } from '../electron/ai/providers/openai-chat.ts';
import { streamSse } from '../electron/ai/transport/transport.ts';
import { mb, percentile, round } from './stats.ts';

const { values } = parseArgs({
  options: {
    mb: { type: 'string', default: '50' },
    chunk: { type: 'string', default: '16384' },
    runs: { type: 'string', default: '5' },
    warmup: { type: 'string', default: '1' },
    seed: { type: 'string', default: '1' },
  },
});
const chunkSize = Number(values.chunk);
const runs = Number(values.runs);
const warmup = Number(values.warmup);

// ---- the transcript ----------------------------------------------------------------------------------

type Expected = { frames: number; textFrames: number; toolFrames: number; textChars: number; calls: number };

// mulberry32: small, fast, and the same bytes for the same seed on every machine.
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// Token-like pieces as models stream them: mostly short English with a leading space, punctuation,
// newlines and quotes (which JSON escapes), and some multi-byte text (2-, 3- and 4-byte UTF-8).
const pieces = [
  ' the',
  ' invoice',
  ' from',
  ' Alice',
  ' is',
  ' due',
  ' on',
  ' Friday',
  '.',
  ',',
  ' and',
  ' two',
  ' unpaid',
  ' reminders',
  ' were',
  ' sent',
  ' last',
  ' week',
  ' meeting',
  ' moved',
  ' to',
  ' Tuesday',
  ':',
  '\n',
  '\n\n',
  '- ',
  '**',
  ' "',
  '"',
  ' summary',
  'ing',
  ' re',
  'ceipt',
  ' 42',
  ' €',
  ' café',
  ' naïve',
  ' Müller',
  ' Zażółć',
  ' gęślą',
  ' Привет',
  ' счёт',
  ' 日本語',
  'の',
  ' 請求書',
  ' 📎',
  ' ✅',
  ' 🙂',
  ' —',
  ' …',
  ' résumé',
  ' Straße',
];

const names = ['search_mail', 'read_message', 'list_folders', 'draft_reply'];
const callCount = 8;
const argumentChars = 8000;

function transcript(targetBytes: number, seed: number): { bytes: Uint8Array; expected: Expected } {
  const next = random(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)] as T;
  // A delta of 1–20 characters, most of them short (as tokenizers make them).
  const delta = (): string => {
    const want = 1 + Math.floor(next() ** 2 * 20);
    let s = '';
    while (s.length < want) s += pick(pieces);
    return s.length > 20 ? s.slice(0, 20) : s;
  };
  const head = {
    id: `chatcmpl-SkBench${String(seed).padStart(4, '0')}`,
    object: 'chat.completion.chunk',
    created: 1767225600,
    model: 'gpt-4.1-mini-2025-04-14',
    system_fingerprint: 'fp_5c1e',
  };
  const lines: string[] = [];
  const push = (choice: Record<string, unknown> | null, usage: Record<string, unknown> | null = null) => {
    lines.push(`data: ${JSON.stringify({ ...head, choices: choice ? [choice] : [], usage })}\n\n`);
  };
  const expected: Expected = { frames: 0, textFrames: 0, toolFrames: 0, textChars: 0, calls: 0 };
  let size = 0;
  const count = () => {
    size += Buffer.byteLength(lines[lines.length - 1] as string);
    expected.frames++;
  };

  push({
    index: 0,
    delta: { role: 'assistant', content: '', refusal: null },
    logprobs: null,
    finish_reason: null,
  });
  count();
  // The tool calls sit at even spacing through the text, each at its own index (parallel calls).
  const budget = targetBytes - 1200;
  let callsMade = 0;
  while (size < budget) {
    if (callsMade < callCount && size > ((callsMade + 1) * budget) / (callCount + 1)) {
      const index = callsMade++;
      const id = `call_${String(index).padStart(2, '0')}${head.id.slice(-4)}`;
      push({
        index: 0,
        delta: {
          tool_calls: [{ index, id, type: 'function', function: { name: pick(names), arguments: '' } }],
        },
        logprobs: null,
        finish_reason: null,
      });
      count();
      let query = '';
      while (query.length < argumentChars) query += pick(pieces);
      const args = JSON.stringify({ query, limit: 1 + Math.floor(next() * 50) });
      for (let at = 0; at < args.length; ) {
        const len = 1 + Math.floor(next() ** 2 * 20);
        const fragment = args.slice(at, at + len);
        at += len;
        push({
          index: 0,
          delta: { tool_calls: [{ index, function: { arguments: fragment } }] },
          logprobs: null,
          finish_reason: null,
        });
        count();
        expected.toolFrames++;
      }
      expected.calls++;
      continue;
    }
    const content = delta();
    push({ index: 0, delta: { content }, logprobs: null, finish_reason: null });
    count();
    expected.textFrames++;
    expected.textChars += content.length;
  }
  push({ index: 0, delta: {}, logprobs: null, finish_reason: 'tool_calls' });
  count();
  push(null, {
    prompt_tokens: 1840,
    completion_tokens: expected.textFrames + expected.toolFrames,
    total_tokens: 1840 + expected.textFrames + expected.toolFrames,
    prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
    completion_tokens_details: {
      reasoning_tokens: 0,
      audio_tokens: 0,
      accepted_prediction_tokens: 0,
      rejected_prediction_tokens: 0,
    },
  });
  count();
  lines.push('data: [DONE]\n\n');
  count();
  return { bytes: new Uint8Array(Buffer.from(lines.join(''))), expected };
}

// ---- the paths ---------------------------------------------------------------------------------------

type Tally = { frames: number; events: number; textChars: number; calls: number; stop: string };

function chunksOf(bytes: Uint8Array): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let i = 0; i < bytes.length; i += chunkSize) out.push(bytes.subarray(i, i + chunkSize));
  return out;
}

// The same chunks, one per read, as a server's body would arrive.
function responseOf(chunks: readonly Uint8Array[]): Response {
  let i = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      const chunk = chunks[i++];
      if (chunk) controller.enqueue(chunk);
      else controller.close();
    },
  });
  return new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } });
}

function tallyEvents(tally: Tally, events: readonly AiEvent[]): void {
  tally.events += events.length;
  for (const e of events) {
    if (e.type === 'text_delta') tally.textChars += e.text.length;
    else if (e.type === 'tool_call_complete') tally.calls++;
    else if (e.type === 'message_stop') tally.stop = e.stopReason;
  }
}

function emptyTally(): Tally {
  return { frames: 0, events: 0, textChars: 0, calls: 0, stop: '' };
}

// As test/support/sse-replay.ts and the transport's readFrames frame a body.
function skimmerCore(chunks: readonly Uint8Array[]): Tally {
  const tally = emptyTally();
  const mapper = createChatMapper();
  const parser = createParser({
    onEvent: (e) => {
      tally.frames++;
      tallyEvents(
        tally,
        mapper.frame(e.event === undefined ? { data: e.data } : { event: e.event, data: e.data }),
      );
    },
  });
  const decoder = new TextDecoder();
  for (const chunk of chunks) parser.feed(decoder.decode(chunk, { stream: true }));
  parser.feed(decoder.decode());
  tallyEvents(tally, mapper.end());
  return tally;
}

async function skimmerTransport(chunks: readonly Uint8Array[], total: number): Promise<Tally> {
  const tally = emptyTally();
  const mapper = createChatMapper();
  const frames = streamSse(
    {
      url: 'http://127.0.0.1:9/v1/chat/completions',
      headers: {},
      body: {},
      keys: [],
      classify: () => ({ code: 'transport' }),
    },
    // No socket: the body comes from memory. maxBytes is raised from its 8 MiB default to let 50 MB through.
    { fetch: async () => responseOf(chunks), maxBytes: total + 1 },
  );
  for await (const frame of frames) {
    tally.frames++;
    tallyEvents(tally, mapper.frame(frame));
  }
  tallyEvents(tally, mapper.end());
  return tally;
}

async function openaiSdk(chunks: readonly Uint8Array[]): Promise<Tally> {
  const tally = emptyTally();
  const ids = new Set<string>();
  const stream = Stream.fromSSEResponse<ChatCompletionChunk>(responseOf(chunks), new AbortController());
  for await (const chunk of stream) {
    tally.frames++;
    tally.events++;
    const choice = chunk.choices[0];
    const content = choice?.delta.content;
    if (content) tally.textChars += content.length;
    for (const call of choice?.delta.tool_calls ?? []) if (call.id) ids.add(call.id);
    if (choice?.finish_reason) tally.stop = choice.finish_reason;
  }
  tally.frames++; // [DONE], which the SDK consumes without yielding
  tally.calls = ids.size;
  return tally;
}

// Every frame's data as its own string, cut out beforehand: what is left is JSON.parse itself. The
// "beyond JSON.parse" line subtracts this, so it is an estimate (the strings here are slices of one
// large string, not freshly decoded ones).
function jsonFloor(datas: readonly string[]): Tally {
  const tally = emptyTally();
  for (const d of datas) {
    tally.frames++;
    if (d !== '[DONE]') tally.events += (JSON.parse(d) as { choices: unknown[] }).choices.length;
  }
  return tally;
}

// ---- run ---------------------------------------------------------------------------------------------

const madeAt = performance.now();
const { bytes, expected } = transcript(Number(values.mb) * 1e6, Number(values.seed));
const chunks = chunksOf(bytes);
const datas = Buffer.from(bytes)
  .toString('utf8')
  .split('\n\n')
  .filter((s) => s !== '')
  .map((s) => s.slice('data: '.length));
const madeMs = performance.now() - madeAt;

type Path = { label: string; run: () => Tally | Promise<Tally>; ms: number[]; last?: Tally };
const paths: Path[] = [
  { label: 'JSON.parse alone (floor)', run: () => jsonFloor(datas), ms: [] },
  { label: 'Skimmer framing + mapping', run: () => skimmerCore(chunks), ms: [] },
  { label: 'Skimmer streamSse + mapping', run: () => skimmerTransport(chunks, bytes.length), ms: [] },
  { label: 'openai Stream.fromSSEResponse', run: () => openaiSdk(chunks), ms: [] },
];
const [floor, core, transport, sdk] = paths as [Path, Path, Path, Path];

for (let r = 0; r < warmup + runs; r++) {
  for (const path of paths) {
    const t = performance.now();
    path.last = await path.run();
    const ms = performance.now() - t;
    if (r >= warmup) path.ms.push(ms);
  }
}

// Every path must have seen the same transcript, or its timing means nothing.
for (const path of [core, transport, sdk]) {
  const t = path.last as Tally;
  const stop = path === sdk ? 'tool_calls' : 'tool_use';
  if (
    t.frames !== expected.frames ||
    t.textChars !== expected.textChars ||
    t.calls !== expected.calls ||
    t.stop !== stop
  ) {
    throw new Error(
      `${path.label} saw a different stream: ${JSON.stringify(t)} vs ${JSON.stringify(expected)}`,
    );
  }
}

function figures(path: Path) {
  const ms = percentile(path.ms, 50);
  const t = path.last as Tally;
  return {
    medianMs: round(ms),
    minMs: round(Math.min(...path.ms)),
    maxMs: round(Math.max(...path.ms)),
    mbPerS: round(bytes.length / 1e6 / (ms / 1000)),
    framesPerS: round(t.frames / (ms / 1000)),
    eventsPerS: round(t.events / (ms / 1000)),
    nsPerFrame: round((ms * 1e6) / t.frames),
    nsPerEvent: round((ms * 1e6) / t.events),
    events: t.events,
  };
}
const results = paths.map(figures);
const [floorFig, coreFig, transportFig, sdkFig] = results as [
  ReturnType<typeof figures>,
  ReturnType<typeof figures>,
  ReturnType<typeof figures>,
  ReturnType<typeof figures>,
];

// Rounds are paired: every path ran once per round, back to back, so a ratio or a difference taken within
// one round cancels most of the load that other work puts on this shared machine.
const paired = (f: (r: number) => number): number[] => Array.from({ length: runs }, (_, r) => f(r));
const at = (path: Path, r: number): number => path.ms[r] as number;
const coreRatios = paired((r) => at(sdk, r) / at(core, r));
const transportRatios = paired((r) => at(sdk, r) / at(transport, r));
const ratio = {
  core: round(percentile(coreRatios, 50)),
  transport: round(percentile(transportRatios, 50)),
  worstRoundCore: round(Math.min(...coreRatios)),
  worstRoundTransport: round(Math.min(...transportRatios)),
};
const beyondJsonParse = (path: Path): number =>
  round(
    percentile(
      paired((r) => ((at(path, r) - at(floor, r)) * 1e6) / expected.frames),
      50,
    ),
  );
const overheadNsPerFrame = {
  skimmerCore: beyondJsonParse(core),
  skimmerTransport: beyondJsonParse(transport),
  openai: beyondJsonParse(sdk),
};
// The strict reading: both Skimmer paths, the bare one and the one the app runs (transport + mapper), at
// least as fast as the SDK on the same body.
const targetMet = ratio.transport >= 1 && ratio.core >= 1;

console.log(
  `Transcript: ${mb(bytes.length)} MB, ${expected.frames.toLocaleString('en')} frames (${expected.textFrames.toLocaleString('en')} text deltas, ${expected.toolFrames.toLocaleString('en')} argument fragments of ${expected.calls} tool calls), made in ${round(madeMs)} ms; fed in ${chunkSize}-byte chunks (${chunks.length.toLocaleString('en')} reads). Median of ${runs} runs after ${warmup} warm-up.`,
);
console.log(
  `${'path'.padEnd(31)} ${'median'.padStart(9)} ${'MB/s'.padStart(7)} ${'frames/s'.padStart(10)} ${'events/s'.padStart(10)} ${'ns/frame'.padStart(9)} ${'ns/event'.padStart(9)}   range`,
);
for (const [i, path] of paths.entries()) {
  const f = results[i] as ReturnType<typeof figures>;
  console.log(
    `${path.label.padEnd(31)} ${`${f.medianMs} ms`.padStart(9)} ${String(f.mbPerS).padStart(7)} ${String(f.framesPerS).padStart(10)} ${String(f.eventsPerS).padStart(10)} ${String(f.nsPerFrame).padStart(9)} ${String(f.nsPerEvent).padStart(9)}   ${f.minMs}–${f.maxMs} ms`,
  );
}
console.log(
  `Per-frame cost beyond JSON.parse (median of per-round differences): Skimmer core ${overheadNsPerFrame.skimmerCore} ns, Skimmer transport ${overheadNsPerFrame.skimmerTransport} ns, openai ${overheadNsPerFrame.openai} ns.`,
);
console.log(
  `Skimmer vs openai (openai time / Skimmer time, median of per-round ratios): core ${ratio.core}× (worst round ${ratio.worstRoundCore}×), transport ${ratio.transport}× (worst round ${ratio.worstRoundTransport}×). Target (at least as fast as the openai parser): ${targetMet ? 'met' : 'NOT met'}.`,
);
console.log(
  'Skimmer events are neutral AiEvents (one per delta, plus start, tool-call start/complete, usage, stop); openai events are the parsed chunks it yields ([DONE] excluded).',
);

console.log(
  JSON.stringify({
    bench: 'stream',
    bytes: bytes.length,
    frames: expected.frames,
    toolCalls: expected.calls,
    chunkSize,
    runs,
    warmup,
    jsonParseFloor: floorFig,
    skimmerCore: coreFig,
    skimmerTransport: transportFig,
    openai: sdkFig,
    overheadNsPerFrame,
    ratio,
    targetMet,
  }),
);
