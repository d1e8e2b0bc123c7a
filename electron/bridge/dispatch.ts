// Every channel of the contract, dispatched as dispatch-on.ts does (the sender check, the schema, the handler):
// what the desktop app's IPC, the browser mode's WebSocket and most commands answer through.
import { type Channel, channels, type ParsedRequest, type Response } from '../../shared/contract/index.ts';
import { dispatchOn } from './dispatch-on.ts';

type Handler<C extends Channel> = (request: ParsedRequest<C>) => Response<C> | Promise<Response<C>>;
export type Handlers = { [C in Channel]: Handler<C> };

export function dispatch(
  handlers: Handlers,
  channel: string,
  raw: unknown,
  senderTrusted: boolean,
  onUnexpected?: (channel: string, error: unknown) => void,
) {
  return dispatchOn(channels, handlers, channel, raw, senderTrusted, onUnexpected);
}
