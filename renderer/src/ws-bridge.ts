// The bridge over one loopback WebSocket, for browser mode (DESIGN §13). It has the same shape as the preload's
// `window.skimmer`: one function per channel plus `subscribe`. The server checks every request; this side only
// frames calls (shared/ws-protocol.ts), matches replies by id and hands stream events to their subscribers.
// The page holds no secret: the browser sends the session cookie that opening the printed address set, and
// no script can read it (HttpOnly).
import type { BridgeError, Envelope, SkimmerApi, StreamEvent } from '../../shared/contract/index.ts';
import type { WsCall, wsPath } from '../../shared/ws-protocol.ts';

// Type-only imports keep zod out of the page; `typeof wsPath` still fails the type check if the path changes.
const bridgePath: typeof wsPath = '/bridge';

type Listener = (event: StreamEvent) => void;

const lost: BridgeError = { code: 'io', message: 'Lost the connection to Skimmer.' };
// A socket refused at the handshake looks like any other failure to a page (the WebSocket API shows no
// status), so the sentence covers both: Skimmer is not running, or this browser has no session.
const notLetIn: BridgeError = {
  code: 'io',
  message:
    'Could not reach Skimmer from this page. Open the newest address that `skimmer serve` printed: each one opens Skimmer once.',
};

// Channel names are `domain:action` (shared/contract/index.ts); anything else (e.g. `then`) is not a channel.
const channelName = /^[a-z]+:[A-Za-z]+$/;

class Connection {
  #socket: WebSocket | null = null;
  #nextId = 1;
  #pending = new Map<number, (reply: Envelope<unknown>) => void>();
  #queue: string[] = [];
  #listeners = new Map<string, Set<Listener>>();

  readonly #url: string;

  constructor(url: string) {
    this.#url = url;
  }

  call(channel: string, request: unknown): Promise<Envelope<unknown>> {
    const id = this.#nextId++;
    const call: WsCall = { id, channel, request };
    return new Promise((resolve) => {
      this.#pending.set(id, resolve);
      this.#send(JSON.stringify(call));
    });
  }

  subscribe(streamId: string, listener: Listener): () => void {
    const set = this.#listeners.get(streamId) ?? new Set();
    set.add(listener);
    this.#listeners.set(streamId, set);
    return () => {
      set.delete(listener);
      if (set.size === 0) this.#listeners.delete(streamId);
    };
  }

  #send(text: string): void {
    const socket = this.#open();
    if (socket.readyState === WebSocket.OPEN) socket.send(text);
    else this.#queue.push(text);
  }

  // Connects on first use and again after a drop; calls made while connecting wait in the queue.
  #open(): WebSocket {
    if (this.#socket && this.#socket.readyState <= WebSocket.OPEN) return this.#socket;
    const socket = new WebSocket(this.#url);
    this.#socket = socket;
    let opened = false;
    socket.onopen = () => {
      opened = true;
      for (const text of this.#queue.splice(0)) socket.send(text);
    };
    socket.onmessage = (message) => {
      if (typeof message.data === 'string') this.#receive(message.data);
    };
    socket.onclose = () => {
      if (this.#socket === socket) this.#socket = null;
      this.#queue = [];
      this.#failAll(opened ? lost : notLetIn);
    };
    return socket;
  }

  #receive(text: string): void {
    let reply: unknown;
    try {
      reply = JSON.parse(text);
    } catch {
      return;
    }
    if (!isObject(reply)) return;
    if (typeof reply.id === 'number') {
      const resolve = this.#pending.get(reply.id);
      this.#pending.delete(reply.id);
      resolve?.(isEnvelope(reply.response) ? reply.response : malformed());
    } else if (isObject(reply.stream) && typeof reply.stream.streamId === 'string') {
      const event = reply.stream.event;
      if (!isObject(event) || typeof event.type !== 'string') return;
      for (const listener of this.#listeners.get(reply.stream.streamId) ?? []) listener(event as StreamEvent);
    }
  }

  // A dropped socket ends every open call and every stream: nothing is left waiting for an answer that
  // cannot come (a stream's work may go on in Skimmer, but this page will not hear of it).
  #failAll(error: BridgeError): void {
    const pending = [...this.#pending.values()];
    this.#pending.clear();
    for (const resolve of pending) resolve({ ok: false, error });
    const listeners = [...this.#listeners.values()].flatMap((set) => [...set]);
    this.#listeners.clear();
    for (const listener of listeners) listener({ type: 'error', error });
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

function isEnvelope(value: unknown): value is Envelope<unknown> {
  return isObject(value) && (value.ok === true || (value.ok === false && isObject(value.error)));
}

function malformed(): Envelope<never> {
  return { ok: false, error: { code: 'internal', message: 'Skimmer sent a reply this page cannot read.' } };
}

export function createWsBridge(): SkimmerApi {
  const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
  const connection = new Connection(`${scheme}://${location.host}${bridgePath}`);
  const subscribe = (streamId: string, listener: Listener) => connection.subscribe(streamId, listener);
  return new Proxy({} as SkimmerApi, {
    get(_, name) {
      if (name === 'subscribe') return subscribe;
      if (typeof name !== 'string' || !channelName.test(name)) return undefined;
      return (request: unknown) => connection.call(name, request);
    },
  });
}
