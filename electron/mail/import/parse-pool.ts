// Parsing is most of an import's time (bench/README.md), so the import worker spreads it over parse
// threads while it reads files and writes SQLite itself (one, or two when mailparser's share needs it: below). A parse thread that dies (out of memory on a
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
  /** How many parse threads run now. */
  threads(): number;
  close(): Promise<void>;
};

const workerUrl = new URL(
  import.meta.url.endsWith('.ts') ? './parse-worker.ts' : './parse-worker.js',
  import.meta.url,
);

// One thread per core, at most 2: beyond that the writer and the main thread start to wait for a core.
export function defaultParseThreads(): number {
  return Math.max(1, Math.min(2, availableParallelism()));
}

// The pool starts with one thread and starts the others only when the one it has is behind on mail that
// mailparser reads (attachments, nested parts): everyday mail read directly (parse-direct.ts) costs about what
// storing it does, so one thread keeps the writer nearly busy and a second buys little for its 50 MB; mail
// with attachments costs four times as much, and there a second thread made the import a fifth faster (issue
// 18, bench/README.md). Behind: this many messages wait for every thread. The share: of all the replies so
// far, once there were 200 (a thread answers its direct reads before the mailparser ones it awaits, so the
// latest replies bunch those together and say little).
const behind = 64;
const shareAfter = 200;
const mailparserShare = 0.1;

type Waiting = { resolve: (m: ParsedMessage) => void; reject: (e: Error) => void };
type Slot = { worker: Worker; waiting: Map<number, Waiting> };

export function createParsePool(size = defaultParseThreads()): ParsePool {
  let closing = false;
  let seq = 0;
  const slots: Slot[] = [];
  // How many replies came, and how many of them mailparser read.
  let replies = 0;
  let viaMailparser = 0;
  const worthAnother = () =>
    slots.length < size &&
    replies >= shareAfter &&
    viaMailparser >= replies * mailparserShare &&
    slots.every((s) => s.waiting.size >= behind);

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
      if (reply.ok) {
        replies++;
        if (!reply.direct) viaMailparser++;
        w.resolve(reply.parsed);
      } else w.reject(reply.expected ? new ParseError(reply.reason) : new Error(reply.reason));
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
      if (slots.length === 0 || worthAnother()) start(slots.length);
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
    threads: () => slots.length,
    async close() {
      closing = true;
      await Promise.all(slots.map((s) => s.worker.terminate()));
    },
  };
}
