// Stream events fan out from jobs to whoever listens (Electron: the window; browser mode: the sockets).
// A job registers how to stop it, so `run:cancel` works whatever the job is.
import { randomUUID } from 'node:crypto';
import type { StreamEvent, StreamMessage } from '../../shared/contract/index.ts';

export type StreamHub = ReturnType<typeof createStreamHub>;

export function createStreamHub() {
  const listeners = new Set<(m: StreamMessage) => void>();
  const running = new Map<string, () => void>();
  return {
    start(cancel: () => void): string {
      const streamId = randomUUID();
      running.set(streamId, cancel);
      return streamId;
    },
    emit(streamId: string, event: StreamEvent, final = false): void {
      if (final) running.delete(streamId);
      for (const l of listeners) {
        try {
          l({ streamId, event });
        } catch {
          // One listener failing (a closed socket) never stops the stream for the others.
        }
      }
    },
    cancel(streamId: string): boolean {
      const stop = running.get(streamId);
      stop?.();
      return stop !== undefined;
    },
    running: (): number => running.size,
    listen(listener: (m: StreamMessage) => void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
