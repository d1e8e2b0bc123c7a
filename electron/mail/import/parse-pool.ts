// Parsing is most of an import's time (bench/README.md), so the import worker spreads it over parse
// threads while it reads files and writes SQLite itself (one, or two when mailparser's share needs it: below).
// Messages travel in batches (below). A parse thread that dies (out of memory on a hostile message) fails only
// the batch it held, and is replaced. A synced message rebuilt from its
// text parts is mostly read at once on the calling thread instead (parse-direct.ts): that costs less
// than the round trip to a thread (bench/imap-sync.ts). The threads start when a message first needs one,
// so a sync whose messages never do starts none.
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { type Waiting, waitingCalls, workerModule } from '../../worker-calls.ts';
import type { ParsedMessage, ParseOptions } from './parse.ts';
import { ParseError } from './parse-bounds.ts';
import type { ParseReply, ParseRequest, ParseResult } from './parse-worker.ts';
import { importThreadLimits } from './thread-memory.ts';

export type ParsePool = {
  /**
   * `handOver`: the caller reads the bytes no more, so a buffer that owns its memory moves to the parse thread
   * instead of being copied (it is empty once the batch it joined is sent, at the latest by the answer).
   */
  parse(raw: Buffer, options?: ParseOptions, handOver?: boolean): Promise<ParsedMessage>;
  /** How many parse threads run now. */
  threads(): number;
  close(): Promise<void>;
};

const workerUrl = workerModule(import.meta.url, 'parse-worker');

// One thread per core, at most 2: beyond that the writer and the main thread start to wait for a core.
export function defaultParseThreads(): number {
  return Math.max(1, Math.min(2, availableParallelism()));
}

// The pool starts with one thread and starts the others only when the one it has is behind on mail that
// mailparser reads (nested or related parts, forwarded messages): mail read directly (parse-direct.ts, mail
// with files attached included) costs about what storing it does, so one thread keeps the writer busy and a
// second buys little for its 50 MB; mail that mailparser reads costs four times as much, and when a corpus still
// had a sixth of it, a second thread made the import a fifth faster (issue 18, bench/README.md). Behind: this
// many messages wait for every thread. The share: of all the replies so
// far, once there were 200 (the latest replies alone say little: a batch is answered at once, and which
// messages share one depends on how fast the files were read).
const behind = 64;
const shareAfter = 200;
const mailparserShare = 0.1;

// Messages go to a thread in batches, one postMessage each way for up to this many (issue 18): a round trip per
// message cost the parse thread and the writer about 50 µs of CPU a message in all, most of it the port's own
// work, not the copying. 8 to 32 a batch measured alike in CPU; a bigger batch keeps more results alive on the
// parse thread while it reads the rest, so the smallest of those (bench/README.md). A batch is sent
// when it is full, or at the next turn of the event loop (setImmediate), so a caller that waits for one message
// waits no longer than that. A big message goes alone: a thread that dies fails the batch it held, and a big
// message is the kind that can make it die.
const batchMessages = 8;
const batchBytes = 256 * 1024;

// A thread, the batches it holds (answered by one reply each, a result per message) and their messages' count.
type Slot = { worker: Worker; batches: ReturnType<typeof waitingCalls<ParseResult[]>>; held: number };
type Batch = {
  messages: ParseRequest['messages'];
  waiting: Waiting<ParsedMessage>[];
  transfer: ArrayBuffer[];
  bytes: number;
};

export function createParsePool(
  size = defaultParseThreads(),
  opts: {
    /**
     * Start the first thread now rather than for the first message: an import needs it for every message, and its
     * start (about 0.3 s, most of it loading the parser) then overlaps finding the files.
     */
    startNow?: boolean;
    /**
     * Reads a rebuilt synced message on the calling thread when it can (parse.ts readDirectMessage): given by the
     * sync, which has parse.ts loaded anyway; the import worker has not (parse-bounds.ts).
     */
    readHere?: (raw: Buffer) => ParsedMessage | null;
  } = {},
): ParsePool {
  let closing = false;
  const slots: Slot[] = [];
  // How many replies came, and how many of them mailparser read.
  let replies = 0;
  let viaMailparser = 0;
  let pending: Batch | null = null;
  let flushScheduled = false;
  const worthAnother = () =>
    slots.length < size &&
    replies >= shareAfter &&
    viaMailparser >= replies * mailparserShare &&
    slots.every((s) => s.held >= behind);

  function start(index: number): void {
    const slot: Slot = {
      worker: new Worker(workerUrl, { name: 'parse', resourceLimits: importThreadLimits }),
      batches: waitingCalls<ParseResult[]>(),
      held: 0,
    };
    slots[index] = slot;
    slot.worker.on('message', ({ batch, results }: ParseReply) => {
      slot.batches.answer(batch, { value: results });
    });
    slot.worker.on('exit', () => {
      slot.batches.failAll(new ParseError('Parsing this message stopped the parser.'));
      slot.held = 0;
      if (!closing) start(index);
    });
    slot.worker.on('error', () => {}); // followed by 'exit', handled above
  }

  function send(): void {
    const batch = pending;
    pending = null;
    if (!batch) return;
    if (closing) {
      for (const w of batch.waiting) w.reject(new ParseError('The parser was closed.'));
      return;
    }
    if (slots.length === 0 || worthAnother()) start(slots.length);
    // The least busy thread takes the next batch.
    const slot = slots.reduce((a, b) => (b.held < a.held ? b : a));
    const count = batch.waiting.length;
    slot.held += count;
    // A batch that could not be sent (a buffer that cannot move, say) fails its messages, not the caller's thread.
    slot.batches
      .call((id) =>
        slot.worker.postMessage(
          { batch: id, messages: batch.messages } satisfies ParseRequest,
          batch.transfer,
        ),
      )
      .then(
        (results) => {
          slot.held -= count;
          results.forEach((reply, i) => {
            const w = batch.waiting[i];
            if (!w) return;
            if (reply.ok) {
              replies++;
              if (!reply.direct) viaMailparser++;
              w.resolve(reply.parsed);
            } else w.reject(reply.expected ? new ParseError(reply.reason) : new Error(reply.reason));
          });
        },
        (error: Error) => {
          slot.held = Math.max(0, slot.held - count);
          for (const w of batch.waiting) w.reject(error);
        },
      );
  }

  if (opts.startNow) start(0);
  return {
    parse(raw, options, handOver = false) {
      const read = options?.rebuilt && opts.readHere ? opts.readHere(raw) : null;
      if (read) return Promise.resolve(read);
      if (closing) return Promise.reject(new ParseError('The parser was closed.'));
      // A big message goes alone, so the batch before it leaves first.
      if (pending && pending.bytes + raw.length > batchBytes) send();
      return new Promise((resolve, reject) => {
        pending ??= { messages: [], waiting: [], transfer: [], bytes: 0 };
        const batch = pending;
        batch.messages.push({ raw, ...(options ? { options } : {}) });
        batch.waiting.push({ resolve, reject });
        batch.bytes += raw.length;
        const owns = raw.byteOffset === 0 && raw.byteLength === raw.buffer.byteLength;
        if (handOver && owns && !batch.transfer.includes(raw.buffer as ArrayBuffer))
          batch.transfer.push(raw.buffer as ArrayBuffer);
        if (batch.messages.length >= batchMessages || batch.bytes >= batchBytes) send();
        else if (!flushScheduled) {
          flushScheduled = true;
          setImmediate(() => {
            flushScheduled = false;
            send();
          });
        }
      });
    },
    threads: () => slots.length,
    async close() {
      closing = true;
      send();
      await Promise.all(slots.map((s) => s.worker.terminate()));
    },
  };
}
