// Runs one bridge channel for the CLI: the same dispatch (schema first) as the app, errors as sentences. On the
// whole app (app.ts) or on what a command needs alone (search-reader.ts): each brings its table of channels.
import { type ChannelTable, dispatchOn, type HandlersOf } from '../bridge/dispatch-on.ts';
import type { Log } from '../log.ts';
import type { Out } from './command.ts';

export async function bridgeCall<T extends ChannelTable>(
  on: { channels: T; handlers: HandlersOf<T>; log: Log },
  channel: keyof T & string,
  request: unknown,
  io: Out,
): Promise<{ ok: true; value: unknown } | { ok: false; exitCode: number }> {
  const response = await dispatchOn(on.channels, on.handlers, channel, request, true, (c, e) =>
    on.log.error(`cli_${c}`, e),
  );
  if (response.ok) return { ok: true, value: response.value };
  io.err(response.error.message);
  return { ok: false, exitCode: response.error.code === 'invalid_request' ? 2 : 1 };
}
