// Parsing is most of an import's time (bench/README.md: mailparser is about 60 % of a profile), so the
// import worker spreads it over parse threads while it reads files and writes SQLite itself.
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { type ParsedMessage, ParseError } from './parse.ts';
import type { ParseReply, ParseRequest } from './parse-worker.ts';

export type ParsePool = { parse(raw: Buffer): Promise<ParsedMessage>; close(): Promise<void> };

const workerUrl = new URL(
  import.meta.url.endsWith('.ts') ? './parse-worker.ts' : './parse-worker.js',
  import.meta.url,
);

// One thread per core, at most 2: beyond that the writer and the main thread start to wait for a core.
export function defaultParseThreads(): number {
  return Math.max(1, Math.min(2, availableParallelism()));
}

export function createParsePool(size = defaultParseThreads()): ParsePool {
  const workers = Array.from({ length: size }, () => new Worker(workerUrl));
  const pending = new Map<number, { resolve: (m: ParsedMessage) => void; reject: (e: Error) => void }>();
  const load = workers.map(() => 0);
  let seq = 0;
  workers.forEach((w, i) => {
    w.on('message', (reply: ParseReply) => {
      load[i] = (load[i] ?? 1) - 1;
      const p = pending.get(reply.seq);
      pending.delete(reply.seq);
      if (!p) return;
      if (reply.ok) p.resolve(reply.parsed);
      else p.reject(reply.expected ? new ParseError(reply.reason) : new Error(reply.reason));
    });
    w.on('error', (e) => {
      for (const p of pending.values()) p.reject(e);
      pending.clear();
    });
  });
  return {
    parse(raw) {
      // The least busy thread takes the next message.
      const i = load.indexOf(Math.min(...load));
      load[i] = (load[i] ?? 0) + 1;
      const id = seq++;
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve, reject });
        workers[i]?.postMessage({ seq: id, raw } satisfies ParseRequest);
      });
    },
    async close() {
      await Promise.all(workers.map((w) => w.terminate()));
    },
  };
}
