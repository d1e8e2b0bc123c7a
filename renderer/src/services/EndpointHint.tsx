import type { ServiceKind } from '../../../shared/contract/index.ts';
import { previewEndpoint } from './endpoint-preview.ts';

// The live "requests will go to" line under a base URL field. Only a hint: Skimmer checks the address
// again when it is saved, and the saved service shows the endpoint Skimmer itself computed.
// `saveError` is the sentence Skimmer gave on save; the hint does not repeat it.
export function EndpointHint({
  kind,
  baseUrl,
  saveError = null,
}: {
  kind: ServiceKind;
  baseUrl: string;
  saveError?: string | null;
}) {
  const preview = previewEndpoint(kind, baseUrl);
  return (
    <p className="endpoint-hint" data-testid="service-endpoint-preview" aria-live="polite">
      {preview === null && (
        <span className="muted">Type a base URL to see the exact address requests will go to.</span>
      )}
      {preview?.ok === true && (
        <>
          <span className="muted">Requests will go to </span>
          <code>{preview.endpoint}</code>
        </>
      )}
      {preview?.ok === false && preview.reason !== saveError && (
        <span className="hint-problem">{preview.reason}</span>
      )}
    </p>
  );
}
