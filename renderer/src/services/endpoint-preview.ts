// A hint while the user types a base URL: the address a request would hit, by the same rules main applies
// on save (shared/service-url.ts). It decides nothing: main checks the address again when it is saved, and
// the saved service's `endpoint` is the one the settings screen shows as authoritative.
import type { ServiceKind } from '../../../shared/contract/index.ts';
import { checkBaseUrl, endpointFor } from '../../../shared/service-url.ts';

export type EndpointPreview = { ok: true; endpoint: string } | { ok: false; reason: string };

export function previewEndpoint(kind: ServiceKind, raw: string): EndpointPreview | null {
  if (raw.trim() === '') return null;
  const checked = checkBaseUrl(raw, kind);
  return checked.ok ? { ok: true, endpoint: endpointFor(kind, checked.baseUrl) } : checked;
}
