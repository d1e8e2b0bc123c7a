// Browser mode (DESIGN §13) carries the same bridge over one loopback WebSocket. The printed address
// `http://127.0.0.1:PORT/bridge/open?token=T` sets a session cookie (Path=/bridge) and sends the browser on
// to `/`; the renderer connects to `ws://127.0.0.1:PORT/bridge` and the browser sends the cookie.
import { z } from 'zod';
import { StreamMessage } from './contract/index.ts';

export const wsPath = '/bridge';

// The largest frame the server reads; a bigger one closes that socket with 1009 (message too big). It holds
// the largest valid request of every channel with room to spare: triage:apply's, 20 rules and up to 20
// approvals of 10,000 ids (16 digits each), about 3.5 MB of JSON; then 100 import paths of 4,096 characters
// (2.5 MB when every character is written as `\u00XX`). test/ws-frame-limit.test.ts builds each channel's
// largest request from its schema's bounds and holds every one under this.
export const maxFrameBytes = 4 * 1024 * 1024;

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
