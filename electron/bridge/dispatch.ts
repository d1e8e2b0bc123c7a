// Every channel of the contract, dispatched as dispatch-on.ts does (the sender check, the schema, the handler):
// what the desktop app's IPC, the browser mode's WebSocket and most commands answer through.
import { channels } from '../../shared/contract/index.ts';
import { dispatchOn, type HandlersOf } from './dispatch-on.ts';

export type Handlers = HandlersOf<typeof channels>;

export function dispatch(
  handlers: Handlers,
  channel: string,
  raw: unknown,
  senderTrusted: boolean,
  onUnexpected?: (channel: string, error: unknown) => void,
) {
  return dispatchOn(channels, handlers, channel, raw, senderTrusted, onUnexpected);
}
