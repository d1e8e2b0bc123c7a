// Browser mode (DESIGN §13) carries the same bridge over one loopback WebSocket. The page is opened at
// `http://127.0.0.1:PORT/#token=T`; the renderer connects to `ws://127.0.0.1:PORT/bridge?token=T`.
import { z } from 'zod';
import { StreamMessage } from './contract.ts';

export const wsPath = '/bridge';

export const WsCall = z.object({
  id: z.number().int().nonnegative(),
  channel: z.string().max(100),
  request: z.unknown(),
});
export type WsCall = z.infer<typeof WsCall>;

export const WsReply = z.union([
  z.object({ id: z.number().int().nonnegative(), response: z.unknown() }),
  z.object({ stream: StreamMessage }),
]);
export type WsReply = z.infer<typeof WsReply>;
