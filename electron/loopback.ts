// Which hosts are this computer (127.0.0.0/8, ::1, localhost). Used wherever loopback is the line a
// request or a server may not cross: the browser mode binds only to these, and a model service may use
// plain http only on these.
import { isIP } from 'node:net';

export function isLoopback(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (isIP(host) === 4) return host.startsWith('127.');
  return host === '::1';
}
