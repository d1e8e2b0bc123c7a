// One parse thread of the import's pool (parse-pool.ts): a batch of raw messages in, one result for each out,
// in the same order, in one reply.
import { parentPort } from 'node:worker_threads';
import { type ParseOptions, parseSaying } from './parse.ts';
import { ParseError } from './parse-bounds.ts';

export type ParseRequest = { batch: number; messages: { raw: Uint8Array; options?: ParseOptions }[] };
export type ParseResult =
  // `direct`: read by parse-direct.ts, not mailparser (the pool counts them to size itself).
  | { ok: true; parsed: Awaited<ReturnType<typeof parseSaying>>['parsed']; direct: boolean }
  | { ok: false; reason: string; expected: boolean };
export type ParseReply = { batch: number; results: ParseResult[] };

async function parseOne(raw: Uint8Array, options: ParseOptions | undefined): Promise<ParseResult> {
  try {
    const bytes = Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength);
    return { ok: true, ...(await parseSaying(bytes, options)) };
  } catch (e) {
    return {
      ok: false,
      reason: e instanceof Error ? e.message : String(e),
      expected: e instanceof ParseError,
    };
  }
}

parentPort?.on('message', async ({ batch, messages }: ParseRequest) => {
  const results = await Promise.all(messages.map((m) => parseOne(m.raw, m.options)));
  parentPort?.postMessage({ batch, results } satisfies ParseReply);
});
