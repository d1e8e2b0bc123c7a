// One parse thread of the import's pool (parse-pool.ts): raw message in, ParsedMessage or a reason out.
import { parentPort } from 'node:worker_threads';
import { type ParsedMessage, ParseError, type ParseOptions, parseSaying } from './parse.ts';

export type ParseRequest = { seq: number; raw: Uint8Array; options?: ParseOptions };
export type ParseReply =
  // `direct`: read by parse-direct.ts, not mailparser (the pool counts them to size itself).
  | { seq: number; ok: true; parsed: ParsedMessage; direct: boolean }
  | { seq: number; ok: false; reason: string; expected: boolean };

parentPort?.on('message', async ({ seq, raw, options }: ParseRequest) => {
  let reply: ParseReply;
  try {
    const bytes = Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength);
    reply = { seq, ok: true, ...(await parseSaying(bytes, options)) };
  } catch (e) {
    reply = {
      seq,
      ok: false,
      reason: e instanceof Error ? e.message : String(e),
      expected: e instanceof ParseError,
    };
  }
  parentPort?.postMessage(reply);
});
