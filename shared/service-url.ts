// Base URL rules for a model service (DESIGN §5), checked on save with no network, and shown live as a
// hint in the settings screen (pure: shared by the main process and the renderer). The user may paste
// an endpoint (`…/v1/chat/completions`): it is trimmed to its base. The settings screen shows
// `endpointFor(kind, base)`, the exact address a request will hit.
import type { ServiceKind } from './contract/index.ts';
import { isLoopback } from './loopback.ts';

export type BaseUrlCheck = { ok: true; baseUrl: string } | { ok: false; reason: string };

// Endpoint paths a user may paste; longest first so `/chat/completions` wins over `/completions`.
const pastedEndpoints = [
  '/chat/completions',
  '/completions',
  '/responses',
  '/messages',
  '/decisions',
  '/systemone',
  '/models',
];

// System One is served at `/systemone` (TypeSafe, Fireworks, Upstage) and at `/decisions` by some gateways
// (OpenRouter's `/api/alpha/decisions`, Merge, Gumloop: wire-formats §4, §5). For that kind a pasted
// `…/decisions` is where it lives, so it is kept; the kind, never the path, still decides the format.
const keptFor: Partial<Record<ServiceKind, string>> = { systemone: '/decisions' };

export function checkBaseUrl(raw: string, kind?: ServiceKind): BaseUrlCheck {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return { ok: false, reason: 'This is not a web address.' };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    return { ok: false, reason: 'The address must start with https:// (or http:// on this computer).' };
  }
  // SECURITY: a key must never travel in clear text over a network; plain http only to this machine.
  if (url.protocol === 'http:' && !isLoopback(url.hostname)) {
    return {
      ok: false,
      reason: 'Plain http:// is allowed only for a server on this computer; use https://.',
    };
  }
  // SECURITY: keys go in headers only; credentials or a query in the URL would end up in logs and errors.
  if (url.username || url.password)
    return { ok: false, reason: 'Put the key in the key field, not in the address.' };
  if (url.search || raw.includes('?')) return { ok: false, reason: 'The address may not have a query (?…).' };
  if (url.hash || raw.includes('#'))
    return { ok: false, reason: 'The address may not have a fragment (#…).' };
  let path = url.pathname.replace(/\/+$/, '');
  const kept = kind ? keptFor[kind] : undefined;
  for (const endpoint of pastedEndpoints) {
    if (endpoint === kept && path.endsWith(endpoint)) break;
    if (path.endsWith(endpoint)) {
      path = path.slice(0, -endpoint.length).replace(/\/+$/, '');
      break;
    }
  }
  return { ok: true, baseUrl: `${url.origin}${path}` };
}

// The Anthropic kind works whether or not the user typed /v1; the OpenAI kinds use the base as given.
export function endpointFor(
  kind: ServiceKind,
  baseUrl: string,
  what: 'request' | 'models' = 'request',
): string {
  const v1 = kind === 'anthropic' && !/\/v1$/.test(baseUrl) ? `${baseUrl}/v1` : baseUrl;
  const kept = keptFor[kind];
  if (kept && v1.endsWith(kept)) return what === 'models' ? `${v1.slice(0, -kept.length)}/models` : v1;
  if (what === 'models') return `${v1}/models`;
  const paths: Record<ServiceKind, string> = {
    openai: '/chat/completions',
    'openai-responses': '/responses',
    anthropic: '/messages',
    decisions: '/decisions',
    systemone: '/systemone',
  };
  return `${v1}${paths[kind]}`;
}
