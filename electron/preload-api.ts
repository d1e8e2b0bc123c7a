// Builds the object the preload exposes. Separate from preload.ts so it is tested with a fake
// ipcRenderer: its keys must equal the contract's channels plus `subscribe`.
import {
  type Channel,
  channelNames,
  type StreamEvent,
  type StreamMessage,
} from '../shared/contract/index.ts';

export const streamChannel = 'skimmer:stream';

type IpcLike = {
  invoke(channel: string, ...args: unknown[]): Promise<unknown>;
  on(channel: string, listener: (event: unknown, message: StreamMessage) => void): unknown;
  removeListener(channel: string, listener: (event: unknown, message: StreamMessage) => void): unknown;
};

export function buildPreloadApi(ipc: IpcLike): Readonly<Record<Channel | 'subscribe', unknown>> {
  const api: Record<string, unknown> = {};
  for (const channel of channelNames) {
    // SECURITY: one fixed channel per function; the page cannot choose the IPC channel name.
    api[channel] = (request: unknown) => ipc.invoke(channel, request);
  }
  api.subscribe = (streamId: string, onEvent: (event: StreamEvent) => void) => {
    const listener = (_event: unknown, message: StreamMessage) => {
      // SECURITY: only the payload crosses into the page, never the IpcRendererEvent (it exposes sender).
      if (message?.streamId === streamId) onEvent(message.event);
    };
    ipc.on(streamChannel, listener);
    return () => {
      ipc.removeListener(streamChannel, listener);
    };
  };
  return Object.freeze(api) as Readonly<Record<Channel | 'subscribe', unknown>>;
}
