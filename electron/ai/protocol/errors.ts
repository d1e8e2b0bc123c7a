// The closed set of model-service error codes (DESIGN §6), each with the one sentence Skimmer shows.
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
