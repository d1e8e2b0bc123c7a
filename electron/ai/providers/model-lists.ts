// "List models" (DESIGN §5): an explicit user action, never automatic. Each wire family has its own list
// shape (wire-formats §1.6, §3.6, §5.5), read leniently: extra fields are ignored, missing optional
// ones tolerated. Also the one place that says how each kind sends its key.
import { z } from 'zod';
import type { ServiceKind } from '../../../shared/contract.ts';
import { endpointFor } from '../../../shared/service-url.ts';
import { AiFailure, requestJson, type TransportOptions } from '../transport.ts';
import { httpErrorCode } from './stream-parts.ts';

// SECURITY: the key travels only in these headers, only to the service's own origin (the transport
// refuses redirects).
export function authHeaders(kind: ServiceKind, key: string | null): Record<string, string> {
  if (kind === 'anthropic') {
    return { 'anthropic-version': '2023-06-01', ...(key ? { 'x-api-key': key } : {}) };
  }
  return key ? { authorization: `Bearer ${key}` } : {};
}

const OpenAiList = z.object({ data: z.array(z.object({ id: z.string().min(1) })) });
const SystemOneList = z.object({ models: z.array(z.object({ name: z.string().min(1) })) });

export function readModelList(kind: ServiceKind, body: unknown): string[] | null {
  if (kind === 'systemone') {
    const parsed = SystemOneList.safeParse(body);
    return parsed.success ? parsed.data.models.map((m) => m.name) : null;
  }
  // OpenAI, OpenAI-compatible servers and Anthropic all list `data[].id`.
  const parsed = OpenAiList.safeParse(body);
  return parsed.success ? parsed.data.data.map((m) => m.id) : null;
}

export async function listModels(
  service: { kind: ServiceKind; baseUrl: string },
  key: string | null,
  opts: TransportOptions & { signal?: AbortSignal } = {},
): Promise<{ ok: true; models: string[] } | { ok: false; reason: string }> {
  const body = await requestJson(
    {
      method: 'GET',
      url: endpointFor(service.kind, service.baseUrl, 'models'),
      headers: authHeaders(service.kind, key),
      body: undefined,
      signal: opts.signal,
      keys: key ? [key] : [],
      classify: (status, _headers, text) => ({ code: httpErrorCode(status, [errorName(text)]) }),
    },
    opts,
  );
  const models = readModelList(service.kind, body);
  if (models === null) {
    return { ok: false, reason: 'This service does not list its models; type the model id instead.' };
  }
  return { ok: true, models: [...new Set(models)].sort() };
}

// "Test connection": asks for the model list, the one request every kind answers without spending
// tokens. Reaching the service counts even when it keeps no list (404 with a key accepted elsewhere is
// still an answer); a refused key, a wrong address or no answer does not.
export async function testConnection(
  service: { kind: ServiceKind; baseUrl: string },
  key: string | null,
  opts: TransportOptions = {},
): Promise<{ ok: boolean; message: string }> {
  try {
    const listed = await listModels(service, key, { ...opts, maxAttempts: 1 });
    return listed.ok
      ? { ok: true, message: `Connected: the service offers ${listed.models.length} models.` }
      : { ok: true, message: 'Connected, but the service does not list its models.' };
  } catch (e) {
    if (e instanceof AiFailure) {
      if (e.code === 'not_found')
        return { ok: true, message: 'Connected, but the service has no model list here.' };
      return { ok: false, message: e.message };
    }
    throw e;
  }
}

function errorName(text: string): string | undefined {
  try {
    const e = (JSON.parse(text) as { error?: { code?: string; type?: string } }).error;
    return e?.code ?? e?.type;
  } catch {
    return undefined;
  }
}
