// Runs one bridge channel for the CLI: the same dispatch (schema first) as the app, errors as sentences.
import type { App } from '../app.ts';
import { dispatch } from '../bridge/dispatch.ts';
import type { Out } from './command.ts';

export async function bridgeCall(
  app: App,
  channel: string,
  request: unknown,
  io: Out,
): Promise<{ ok: true; value: unknown } | { ok: false; exitCode: number }> {
  const response = await dispatch(app.handlers, channel, request, true, (c, e) =>
    app.log.error(`cli_${c}`, e),
  );
  if (response.ok) return { ok: true, value: response.value };
  io.err(response.error.message);
  return { ok: false, exitCode: response.error.code === 'invalid_request' ? 2 : 1 };
}
