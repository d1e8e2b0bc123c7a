// The closed set of model-service error codes (DESIGN §6). Shared so the renderer can branch on them;
// the sentences that go with them live in electron/ai/protocol/errors.ts.
import { z } from 'zod';

export const AiErrorCode = z.enum([
  'invalid_request',
  'unsupported_capability',
  'no_api_key',
  'unauthorized',
  'forbidden',
  'not_found',
  'rate_limited',
  'quota_exceeded',
  'unavailable',
  'http_status',
  'transport',
  'timeout',
  'malformed_stream',
  'response_too_large',
  'context_overflow',
  'incomplete',
  'stale',
  'cancelled',
  'bad_answer',
]);
