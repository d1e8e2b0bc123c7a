// `skimmer serve`: Skimmer in the browser on 127.0.0.1 (DESIGN §10), until Ctrl+C.
import { serve } from '../web/server.ts';
import type { Command } from './command.ts';
import { UsageError } from './failures.ts';

export const serveCommand: Command = async (app, _args, values, io, signal) => {
  const port = values.port === undefined ? 0 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new UsageError('--port must be a number from 0 to 65535.');
  }
  // Each address opens Skimmer in one browser (DESIGN §13): once one is used, the next is printed.
  const served = await serve(app, {
    port,
    onOpened: (next) =>
      io.out(
        values.json
          ? JSON.stringify({ url: next, port: served.port })
          : `Opened in a browser. To open Skimmer in another browser (or after closing this one), use ${next}`,
      ),
  });
  if (values.json) io.out(JSON.stringify({ url: served.url, port: served.port }));
  else
    io.out(
      `Skimmer is running at ${served.url}\nOpen that address in your browser (it works once); press Ctrl+C to stop.`,
    );
  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    signal?.addEventListener('abort', stop, { once: true });
  });
  await served.close();
  return 0;
};
