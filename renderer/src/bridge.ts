// The one way the renderer reaches Skimmer (DESIGN §2). In Electron the preload exposes `window.skimmer`;
// in browser mode the same shape runs over a WebSocket. Stores use `bridge`; components never do.
import type { Envelope, SkimmerApi } from '../../shared/contract/index.ts';
import { createWsBridge } from './ws-bridge.ts';

declare global {
  interface Window {
    readonly skimmer?: SkimmerApi;
  }
}

export const bridgeKind: 'desktop' | 'browser' = window.skimmer ? 'desktop' : 'browser';

// Errors are values at the edge (STYLE.md): a call that throws or returns something that is not an envelope
// becomes an `{ok:false}` envelope, so no store has to guard against a rejected promise.
// The proxy's own target is empty: the preload's object is frozen, and a proxy may not report a frozen
// target's properties as anything but their own values.
function neverRejecting(api: SkimmerApi): SkimmerApi {
  return new Proxy({} as SkimmerApi, {
    get(_, name) {
      const member: unknown = Reflect.get(api, name);
      if (name === 'subscribe' || typeof member !== 'function') return member;
      return async (request: unknown): Promise<Envelope<unknown>> => {
        try {
          const reply: unknown = await member.call(api, request);
          if (typeof reply === 'object' && reply !== null && 'ok' in reply) return reply as Envelope<unknown>;
        } catch {
          // Reported below as one sentence; the exception text is not ours to show.
        }
        return { ok: false, error: { code: 'internal', message: 'The request to Skimmer failed.' } };
      };
    },
  });
}

export const bridge: SkimmerApi = neverRejecting(window.skimmer ?? createWsBridge());
