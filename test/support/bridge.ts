// Calls a channel the way the renderer does and parses the envelope with the contract's response
// schema, so a test fails the moment a handler's output drifts from the contract.

import type { App } from '../../electron/app.ts';
import { dispatch } from '../../electron/bridge/dispatch.ts';
import { type Channel, channels, envelope, type Request, type Response } from '../../shared/contract.ts';

export async function call<C extends Channel>(
  app: App,
  channel: C,
  request: Request<C>,
): Promise<Response<C>> {
  const raw = await dispatch(app.handlers, channel, request, true);
  const env = envelope(channels[channel].response).parse(raw);
  if (!env.ok) throw new Error(`${channel} failed: ${env.error.code} ${env.error.message}`);
  return env.value as Response<C>;
}

export async function callRaw(app: App, channel: string, request: unknown) {
  return dispatch(app.handlers, channel, request, true);
}
