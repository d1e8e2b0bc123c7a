// Who may use the browser mode's bridge (DESIGN §13). `skimmer serve` prints an address carrying a random
// token; opening it trades that token, once, for a session cookie and sends the browser on to the bare
// app. The token is then spent: Chromium keeps the address it was opened at (History, Sessions, Top Sites,
// the redirect included), so only a spent token there is harmless. A new token takes its place for the next
// browser, and the command prints the address that carries it.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { wsPath } from '../../shared/ws-protocol.ts';

// Where the printed address points: under the bridge's path, so the cookie (Path=/bridge) comes with it and
// a browser that already has a session is sent on even when the address it opens is spent.
export const openPath = `${wsPath}/open`;

export type BrowserAccess = {
  /** The token the next printed address carries. */
  token(): string;
  /** The cookie for a new session when `given` is the current token, which is then spent; else null. */
  exchange(given: string | null): string | null;
  /** Whether a request's Cookie header carries a session of this server. */
  admits(cookieHeader: string | undefined): boolean;
};

export function browserAccess(port: () => number): BrowserAccess {
  let token = newSecret();
  // Digests only: what is kept in memory cannot be replayed, and a Set lookup of a digest says nothing
  // about the secret's own bytes.
  const sessions = new Set<string>();
  // Cookies do not tell ports apart (RFC 6265 §8.5): the port in the name keeps two Skimmers on one computer
  // from overwriting each other's session.
  const name = () => `skimmer-${port()}`;

  return {
    token: () => token,
    exchange(given) {
      if (!given || !sameSecret(given, token)) return null;
      token = newSecret();
      const session = newSecret();
      sessions.add(digest(session));
      // SECURITY: HttpOnly (no script reads it), SameSite=Strict (no other site's request carries it), sent
      // only to the bridge's path, and gone when the browser closes (no Expires).
      return `${name()}=${session}; Path=${wsPath}; HttpOnly; SameSite=Strict`;
    },
    admits(cookieHeader) {
      for (const part of (cookieHeader ?? '').split(';')) {
        const [key, value] = part.trim().split('=', 2);
        if (key === name() && value && sessions.has(digest(value))) return true;
      }
      return false;
    },
  };
}

function newSecret(): string {
  return randomBytes(24).toString('base64url');
}

function digest(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

function sameSecret(given: string, secret: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(secret);
  return a.length === b.length && timingSafeEqual(a, b);
}
