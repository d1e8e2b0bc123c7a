// Starts bench/slow-link.ts in its own process in front of a local port (so its CPU is not counted as the
// client's): the port to connect to instead, and a stop that says how many bytes it carried each way.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

export async function startLink(to: number, mbit: number, rttMs: number) {
  const script = new URL('./slow-link.ts', import.meta.url).pathname;
  const args = [script, '--to', String(to), '--mbit', String(mbit), '--rtt', String(rttMs)];
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const { port } = JSON.parse((await lines.next()).value as string) as { port: number };
  let stopped: Promise<{ down: number; up: number }> | null = null;
  return {
    port,
    /** Idempotent, so a `finally` can stop it again. */
    stop() {
      stopped ??= (async () => {
        child.kill('SIGTERM');
        const said = (await lines.next()).value as string;
        return (JSON.parse(said) as { carried: { down: number; up: number } }).carried;
      })();
      return stopped;
    },
  };
}
