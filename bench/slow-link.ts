// A network link for the IMAP benchmark (bench/imap-sync.ts --link): a TCP proxy on 127.0.0.1 in front of a
// local server that gives every byte the bandwidth and the round trip a real connection to a mail provider
// has. The bandwidth of each direction is shared by all connections, as one household's line is (the sync
// and the fetcher thread each have a connection); each chunk leaves when the line is free, then arrives half a
// round trip later. A connection that has more than `window` bytes waiting is paused, as TCP's window would
// stop the sender. Runs as its own process so its CPU is not counted as the client's.
//
//   node bench/slow-link.ts --to PORT --mbit 100 --rtt 20    prints {"port":N}, then on SIGTERM the bytes carried
import { createConnection, createServer, type Socket } from 'node:net';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    to: { type: 'string' },
    mbit: { type: 'string', default: '100' },
    rtt: { type: 'string', default: '20' },
  },
});
const upstreamPort = Number(values.to);
const bytesPerMs = (Number(values.mbit) * 1e6) / 8 / 1000;
const oneWayMs = Number(values.rtt) / 2;
const window = 4 * 1024 * 1024;

type Line = { freeAt: number; carried: number };
const down: Line = { freeAt: 0, carried: 0 };
const up: Line = { freeAt: 0, carried: 0 };

/** Carries what `from` sends to `to` over `line`, in order, paced. */
function carry(from: Socket, to: Socket, line: Line): void {
  const queue: { at: number; chunk: Buffer }[] = [];
  let queued = 0;
  let timer: NodeJS.Timeout | null = null;
  const pump = () => {
    timer = null;
    const now = performance.now();
    while (queue.length > 0 && (queue[0] as { at: number }).at <= now) {
      const { chunk } = queue.shift() as { chunk: Buffer };
      queued -= chunk.length;
      if (!to.destroyed) to.write(chunk);
    }
    if (queued < window && from.isPaused()) from.resume();
    if (queue.length > 0) timer = setTimeout(pump, (queue[0] as { at: number }).at - now);
    else if (from.readableEnded) to.end();
  };
  from.on('data', (chunk: Buffer) => {
    const now = performance.now();
    const leaves = Math.max(now, line.freeAt) + chunk.length / bytesPerMs;
    line.freeAt = leaves;
    line.carried += chunk.length;
    queue.push({ at: leaves + oneWayMs, chunk });
    queued += chunk.length;
    if (queued >= window) from.pause();
    if (!timer) timer = setTimeout(pump, leaves + oneWayMs - now);
  });
  from.on('end', () => {
    if (queue.length === 0) to.end();
  });
  from.on('error', () => to.destroy());
  from.on('close', () => {
    if (queue.length === 0) to.destroy();
  });
}

const server = createServer((client) => {
  const upstream = createConnection({ host: '127.0.0.1', port: upstreamPort });
  client.setNoDelay(true);
  upstream.setNoDelay(true);
  carry(client, upstream, up);
  carry(upstream, client, down);
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  console.log(JSON.stringify({ port: typeof address === 'object' && address ? address.port : 0 }));
});
process.on('SIGTERM', () => {
  console.log(JSON.stringify({ carried: { down: down.carried, up: up.carried } }));
  process.exit(0);
});
