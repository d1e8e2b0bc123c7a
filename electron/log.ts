// The app log: one JSON object per line in the data folder. Callers pass facts (codes, counts, error
// names), never request bodies or secrets; the canary test checks that no key ever lands here.
import { appendFileSync } from 'node:fs';

export type Log = {
  info(event: string, fields?: Record<string, unknown>): void;
  error(event: string, e: unknown): void;
};

export function fileLog(file: string, now: () => number = Date.now): Log {
  const write = (level: string, event: string, fields: Record<string, unknown>) => {
    try {
      appendFileSync(
        file,
        `${JSON.stringify({ at: new Date(now()).toISOString(), level, event, ...fields })}\n`,
        {
          mode: 0o600,
        },
      );
    } catch {
      // Logging must never take the app down (full disk, read-only folder).
    }
  };
  return {
    info: (event, fields = {}) => write('info', event, fields),
    error: (event, e) =>
      write('error', event, {
        name: e instanceof Error ? e.name : typeof e,
        message: e instanceof Error ? e.message.slice(0, 500) : undefined,
        stack: e instanceof Error ? e.stack?.split('\n').slice(1, 6).join('\n') : undefined,
      }),
  };
}
