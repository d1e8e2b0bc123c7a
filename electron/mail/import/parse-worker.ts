// One parse thread of the import's pool (parse-pool.ts): raw message in, ParsedMessage or a reason out.
import { parentPort } from 'node:worker_threads';
import { ParseError, type ParseOptions, parseMessage } from './parse.ts';

export type ParseRequest = { seq: number; raw: Uint8Array; options?: ParseOptions };
export type ParseReply =
  | { seq: number; ok: true; parsed: Awaited<ReturnType<typeof parseMessage>> }
  | { seq: number; ok: false; reason: string; expected: boolean };

parentPort?.on('message', async ({ seq, raw, options }: ParseRequest) => {
  let reply: ParseReply;
  try {
    reply = {
      seq,
      ok: true,
      parsed: await parseMessage(Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength), options),
    };
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
