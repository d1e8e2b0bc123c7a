// Calls a channel the way the renderer does and parses the envelope with the contract's response
// schema, so a test fails the moment a handler's output drifts from the contract.

import type { App } from '../../electron/app.ts';
import { dispatch } from '../../electron/bridge/dispatch.ts';
import {
  type Channel,
  channels,
  envelope,
  type Request,
  type Response,
  type StreamMessage,
} from '../../shared/contract.ts';

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

/** Imports the bundled demo mailbox through the bridge, as the page does; resolves on the import's end. */
export function importDemo(app: App): Promise<void> {
  return new Promise((resolve, reject) => {
    const seen: StreamMessage[] = [];
    let streamId: string | null = null;
    const check = () => {
      const done = seen.find((m) => m.streamId === streamId && m.event.type !== 'import_progress');
      if (!done) return;
      off();
      if (done.event.type === 'import_done') resolve();
      else reject(new Error(`the demo import ended with ${done.event.type}`));
    };
    // Listening first: the import's events may arrive before its streamId is known here.
    const off = app.streams.listen((m) => {
      seen.push(m);
      check();
    });
    call(app, 'mail:import', { demo: true }).then(({ streamId: id }) => {
      streamId = id;
      check();
    }, reject);
  });
}
