// The wire side of "List models" (DESIGN §5; the request itself is ai/transport/list-models.ts). Each wire family has its
// own list shape (wire-formats §1.6, §3.6, §5.5), read leniently: extra fields are ignored, missing optional
// ones tolerated. Also the one place that says how each kind sends its key.
import { z } from 'zod';
import type { ServiceKind } from '../../../shared/contract/index.ts';
import { endpointFor } from '../../../shared/service-url.ts';
import type { AiErrorCode } from '../protocol/errors.ts';
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

/** The request "List models" makes: the kind's models endpoint, its auth header, its error bodies read. */
export function modelListRequest(service: { kind: ServiceKind; baseUrl: string }, key: string | null) {
  return {
    method: 'GET' as const,
    url: endpointFor(service.kind, service.baseUrl, 'models'),
    headers: authHeaders(service.kind, key),
    body: undefined,
    keys: key ? [key] : [],
    classify: (status: number, _headers: Headers, text: string): { code: AiErrorCode } => ({
      code: httpErrorCode(status, [errorName(text)]),
    }),
  };
}

function errorName(text: string): string | undefined {
  try {
    const e = (JSON.parse(text) as { error?: { code?: string; type?: string } }).error;
    return e?.code ?? e?.type;
  } catch {
    return undefined;
  }
}
