// The closed set of model-service error codes (DESIGN §6), each with the one sentence Skimmer shows, the
// failure that carries one (AiFailure), and the HTTP status defaults every provider classifies with.
// Provider text never becomes the message: at most it is `providerDetail`, after redaction.
import type { z } from 'zod';
import { AiErrorCode as AiErrorCodeSchema } from '../../../shared/ai-errors.ts';

export const AiErrorCode = AiErrorCodeSchema;
export type AiErrorCode = z.infer<typeof AiErrorCodeSchema>;

export const aiErrorMessages: Record<AiErrorCode, string> = {
  invalid_request: 'The request was not sent because it is not valid.',
  unsupported_capability: 'This model cannot do what was asked (for example, call tools).',
  no_api_key: 'This service needs an API key, and none is saved for it.',
  unauthorized: 'The service did not accept the API key.',
  forbidden: 'The service refused this request for this key.',
  not_found: 'The service does not know this model or address.',
  rate_limited: 'The service is rate limiting requests; try again shortly.',
  quota_exceeded: 'The account has no quota or credit left at this service.',
  unavailable: 'The service is overloaded or down right now.',
  http_status: 'The service answered with an unexpected HTTP status.',
  transport: 'Skimmer could not reach the service.',
  timeout: 'The service took too long to answer.',
  malformed_stream: 'The service sent an answer Skimmer could not read.',
  response_too_large: 'The answer was larger than Skimmer accepts.',
  context_overflow: 'The conversation is too long for this model, even after trimming.',
  incomplete: 'The answer was cut off before it finished.',
  stale: 'The service was changed or removed while this request was running.',
  cancelled: 'The request was stopped.',
  bad_answer: 'The answer did not have the shape Skimmer asked for.',
};

// Whether a failure with this code may be retried before any output reached the user (DESIGN §6).
export function isRetryable(code: AiErrorCode): boolean {
  return code === 'rate_limited' || code === 'unavailable' || code === 'transport' || code === 'timeout';
}

export type TransportFailure = { code: AiErrorCode; providerDetail?: string };

// Every failure of a model request: the transport's (streamSse, requestJson) and the checks around it.
// `message` is always aiErrorMessages[code].
// SECURITY: no `cause` is attached: an underlying fetch error can carry the request URL (with a query)
// or socket details, and `cause` is printed by console.log and util.inspect. Provider text only ever
// travels in `providerDetail`, already redacted.
export class AiFailure extends Error {
  readonly code: AiErrorCode;
  readonly providerDetail?: string;
  // What the server asked us to wait (clamped), when it said; the retry loop prefers it to backoff.
  readonly retryAfterMs?: number;

  constructor(code: AiErrorCode, extra: { providerDetail?: string; retryAfterMs?: number } = {}) {
    super(aiErrorMessages[code]);
    this.name = 'AiFailure';
    this.code = code;
    if (extra.providerDetail) this.providerDetail = extra.providerDetail;
    if (extra.retryAfterMs !== undefined) this.retryAfterMs = extra.retryAfterMs;
  }

  toJSON(): TransportFailure & { message: string } {
    return { code: this.code, message: this.message, providerDetail: this.providerDetail };
  }
}

// Status defaults for providers' `classify`, which has the final word (only the provider can tell a
// quota 429 from a rate-limit 429). 408 is a timeout and 409 a transient conflict, both retried.
export function defaultCodeForStatus(status: number): AiErrorCode {
  if (status === 400 || status === 422) return 'invalid_request';
  if (status === 401) return 'unauthorized';
  if (status === 403) return 'forbidden';
  if (status === 404) return 'not_found';
  if (status === 408) return 'timeout';
  if (status === 409) return 'unavailable';
  if (status === 429) return 'rate_limited';
  if (status >= 500) return 'unavailable';
  return 'http_status';
}
