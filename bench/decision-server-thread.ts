// fixtures/judge/decision-server.ts on a thread of its own, for a benchmark that watches its main thread: the
// server's own work (parsing requests, timers, answers) would otherwise count as the app's.
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { type DecisionServerOptions, startDecisionServer } from '../fixtures/judge/decision-server.ts';

type Data = { decisionServer: DecisionServerOptions };

export async function startDecisionServerThread(
  opts: DecisionServerOptions,
): Promise<{ base: string; close(): Promise<void> }> {
  const worker = new Worker(new URL(import.meta.url), {
    workerData: { decisionServer: opts } satisfies Data,
  });
  const base = await new Promise<string>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  return {
    base,
    async close() {
      await worker.terminate();
    },
  };
}

if (!isMainThread && (workerData as Partial<Data>)?.decisionServer) {
  const server = await startDecisionServer((workerData as Data).decisionServer);
  parentPort?.postMessage(server.base);
}
