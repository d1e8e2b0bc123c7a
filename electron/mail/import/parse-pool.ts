// Parsing is most of an import's time (bench/README.md), so the import worker spreads it over parse
// threads while it reads files and writes SQLite itself. A parse thread that dies (out of memory on a
// hostile message) fails only the messages it held, and is replaced. A synced message rebuilt from its
// text parts is mostly read at once on the calling thread instead (parse-direct.ts): that costs less
// than the round trip to a thread (bench/imap-sync.ts). The threads start when a message first needs one,
// so a sync whose messages never do starts none.
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { type ParsedMessage, ParseError, type ParseOptions, readDirectMessage } from './parse.ts';
import type { ParseReply, ParseRequest } from './parse-worker.ts';
import { importThreadLimits } from './thread-memory.ts';

export type ParsePool = {
  /**
   * `handOver`: the caller reads the bytes no more, so a buffer that owns its memory moves to the parse thread
   * instead of being copied (it is empty afterwards).
   */
  parse(raw: Buffer, options?: ParseOptions, handOver?: boolean): Promise<ParsedMessage>;
  close(): Promise<void>;
};

const workerUrl = new URL(
  import.meta.url.endsWith('.ts') ? './parse-worker.ts' : './parse-worker.js',
  import.meta.url,
);

// One thread per core beside the one that stores, at most 2: with everyday mail read directly (parse-direct.ts)
// parsing a message takes about as long as storing it, so on two cores one parse thread keeps the writer
// busy and a second only competes with it for a core, and costs its memory (issue 18, bench/README.md).
export function defaultParseThreads(): number {
  return Math.max(1, Math.min(2, availableParallelism() - 1));
}

type Waiting = { resolve: (m: ParsedMessage) => void; reject: (e: Error) => void };
type Slot = { worker: Worker; waiting: Map<number, Waiting> };

export function createParsePool(size = defaultParseThreads()): ParsePool {
  let closing = false;
  let seq = 0;
  const slots: Slot[] = [];

  function start(index: number): void {
    const slot: Slot = {
      worker: new Worker(workerUrl, { name: 'parse', resourceLimits: importThreadLimits }),
      waiting: new Map(),
    };
    slots[index] = slot;
    slot.worker.on('message', (reply: ParseReply) => {
      const w = slot.waiting.get(reply.seq);
      slot.waiting.delete(reply.seq);
      if (!w) return;
      if (reply.ok) w.resolve(reply.parsed);
      else w.reject(reply.expected ? new ParseError(reply.reason) : new Error(reply.reason));
    });
    slot.worker.on('exit', () => {
      for (const w of slot.waiting.values())
        w.reject(new ParseError('Parsing this message stopped the parser.'));
      slot.waiting.clear();
      if (!closing) start(index);
    });
    slot.worker.on('error', () => {}); // followed by 'exit', handled above
  }

  return {
    parse(raw, options, handOver = false) {
      const read = options?.rebuilt ? readDirectMessage(raw) : null;
      if (read) return Promise.resolve(read);
      if (closing) return Promise.reject(new ParseError('The parser was closed.'));
      if (slots.length === 0) for (let i = 0; i < size; i++) start(i);
      // The least busy thread takes the next message.
      const slot = slots.reduce((a, b) => (b.waiting.size < a.waiting.size ? b : a));
      const id = seq++;
      return new Promise((resolve, reject) => {
        slot.waiting.set(id, { resolve, reject });
        const owns = raw.byteOffset === 0 && raw.byteLength === raw.buffer.byteLength;
        const request: ParseRequest = { seq: id, raw, ...(options ? { options } : {}) };
        slot.worker.postMessage(request, handOver && owns ? [raw.buffer as ArrayBuffer] : []);
      });
    },
    async close() {
      closing = true;
      await Promise.all(slots.map((s) => s.worker.terminate()));
    },
  };
}
