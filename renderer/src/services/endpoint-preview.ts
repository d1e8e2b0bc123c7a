// A hint while the user types a base URL: the address a request would hit. It mirrors the base URL rules
// (DESIGN §5, electron/ai/service-url.ts) but decides nothing: main checks the address again on save, and
// the saved service's `endpoint` is the one the settings screen shows as authoritative.
import type { ServiceKind } from '../../../shared/contract.ts';

export type EndpointPreview = { ok: true; endpoint: string } | { ok: false; reason: string };

const pastedEndpoints = [
  '/chat/completions',
  '/completions',
  '/responses',
  '/messages',
  '/decisions',
  '/systemone',
  '/models',
];

const requestPaths: Record<ServiceKind, string> = {
  openai: '/chat/completions',
  'openai-responses': '/responses',
  anthropic: '/messages',
  decisions: '/decisions',
  systemone: '/systemone',
};

// The page has no node:net; the URL parser has already normalised IPv4 forms like 2130706433.
function isLoopback(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (/^\d{1,3}(\.\d{1,3}){3}$/.test(host)) return host.startsWith('127.');
  return host === '::1';
}

export function previewEndpoint(kind: ServiceKind, raw: string): EndpointPreview | null {
  const typed = raw.trim();
  if (typed === '') return null;
  let url: URL;
  try {
    url = new URL(typed);
  } catch {
    return { ok: false, reason: 'This is not a web address yet.' };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    return { ok: false, reason: 'The address must start with https:// (or http:// on this computer).' };
  }
  if (url.protocol === 'http:' && !isLoopback(url.hostname)) {
    return {
      ok: false,
      reason: 'Plain http:// is allowed only for a server on this computer; use https://.',
    };
  }
  if (url.username || url.password) {
    return { ok: false, reason: 'Put the key in the key field, not in the address.' };
  }
  if (url.search || typed.includes('?')) {
    return { ok: false, reason: 'The address may not have a query (?…).' };
  }
  if (url.hash || typed.includes('#')) {
    return { ok: false, reason: 'The address may not have a fragment (#…).' };
  }
  let path = url.pathname.replace(/\/+$/, '');
  const pasted = pastedEndpoints.find((endpoint) => path.endsWith(endpoint));
  if (pasted) path = path.slice(0, -pasted.length).replace(/\/+$/, '');
  const base = `${url.origin}${path}`;
  // The Anthropic kind works whether or not the user typed /v1.
  const v1 = kind === 'anthropic' && !/\/v1$/.test(base) ? `${base}/v1` : base;
  return { ok: true, endpoint: `${v1}${requestPaths[kind]}` };
}
