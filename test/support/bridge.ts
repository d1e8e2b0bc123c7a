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
  type StreamEvent,
  StreamMessage,
} from '../../shared/contract/index.ts';

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

/**
 * The events of one stream, up to and including the first whose type is one of `last`. Every message any
 * stream sends meanwhile is parsed with the contract. Call it before the stream can end: right after the
 * request that started it, in the same task.
 */
export function streamUntil(
  app: App,
  streamId: string,
  last: readonly StreamEvent['type'][],
): Promise<StreamEvent[]> {
  const seen: StreamEvent[] = [];
  return new Promise((resolve) => {
    const off = app.streams.listen((m) => {
      StreamMessage.parse(m);
      if (m.streamId !== streamId) return;
      seen.push(m.event);
      if (last.includes(m.event.type)) {
        off();
        resolve(seen);
      }
    });
  });
}

/**
 * Runs `mail:import` through the bridge, as the page does; resolves with the import's last event (its end, or how
 * it failed). Listening first: the import's events may arrive before its streamId is known here.
 */
export function importOver(app: App, request: Request<'mail:import'>): Promise<StreamEvent> {
  return new Promise((resolve, reject) => {
    const seen: StreamMessage[] = [];
    let streamId: string | null = null;
    const check = () => {
      const end = seen.find((m) => m.streamId === streamId && m.event.type !== 'import_progress');
      if (!end) return;
      off();
      resolve(end.event);
    };
    const off = app.streams.listen((m) => {
      seen.push(StreamMessage.parse(m));
      check();
    });
    call(app, 'mail:import', request).then(({ streamId: id }) => {
      streamId = id;
      check();
    }, reject);
  });
}

/** Imports the bundled demo mailbox through the bridge, as the page does; resolves on the import's end. */
export async function importDemo(app: App): Promise<void> {
  const end = await importOver(app, { demo: true });
  if (end.type !== 'import_done') throw new Error(`the demo import ended with ${end.type}`);
}
