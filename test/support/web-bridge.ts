// A bridge socket to a browser-mode server (electron/web/server.ts), opened the way the page opens it.
import WebSocket from 'ws';
import type { Served } from '../../electron/web/server.ts';
import type { WsCall } from '../../shared/ws-protocol.ts';

export function openBridge(served: Served): Promise<WebSocket> {
  const token = new URL(served.url).hash.replace('#token=', '');
  const ws = new WebSocket(`ws://127.0.0.1:${served.port}/bridge?token=${token}`, {
    origin: `http://127.0.0.1:${served.port}`,
  });
  return new Promise((resolve, reject) => {
    ws.once('open', () => resolve(ws));
    ws.once('error', reject);
    ws.once('unexpected-response', (_req, res) => reject(new Error(`status ${res.statusCode}`)));
  });
}

/** Sends one call and resolves with the envelope of its reply; rejects if the socket closes first. */
export function callOver(ws: WebSocket, call: WsCall): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const onClose = (code: number) => reject(new Error(`the socket closed (${code}) before the reply`));
    const onMessage = (data: WebSocket.RawData) => {
      const reply = JSON.parse(data.toString()) as { id?: number; response?: unknown };
      if (reply.id === call.id) {
        ws.off('message', onMessage);
        ws.off('close', onClose);
        resolve(reply.response);
      }
    };
    ws.on('message', onMessage);
    ws.once('close', onClose);
    ws.send(JSON.stringify(call));
  });
}
