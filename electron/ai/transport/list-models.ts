// "List models" and "Test connection" (DESIGN §5): explicit user actions, never automatic. The request and the
// list's shape are the provider's (providers/model-lists.ts); this sends it through the transport.
import type { ServiceKind } from '../../../shared/contract/index.ts';
import { AiFailure } from '../protocol/errors.ts';
import { modelListRequest, readModelList } from '../providers/model-lists.ts';
import { requestJson, type TransportOptions } from './transport.ts';

export async function listModels(
  service: { kind: ServiceKind; baseUrl: string },
  key: string | null,
  opts: TransportOptions & { signal?: AbortSignal } = {},
): Promise<{ ok: true; models: string[] } | { ok: false; reason: string }> {
  const body = await requestJson({ ...modelListRequest(service, key), signal: opts.signal }, opts);
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
