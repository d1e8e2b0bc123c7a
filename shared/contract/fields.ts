// Pieces of the contract that several domains use, written once.
import { z } from 'zod';
import { AiErrorCode } from '../ai-errors.ts';

// A closed set of error codes: the model-service codes (DESIGN §6) plus the bridge's own. Callers branch on
// the code, never on the message, which is always a sentence written by Skimmer.
export const ErrorCode = z.enum([
  ...new Set([
    ...AiErrorCode.options,
    'invalid_request',
    'forbidden',
    'not_found',
    'cancelled',
    'busy',
    'io',
    'internal',
  ] as const),
]);
export type ErrorCode = z.infer<typeof ErrorCode>;

export const BridgeError = z.object({ code: ErrorCode, message: z.string().max(500) });
export type BridgeError = z.infer<typeof BridgeError>;

export const Id = z.number().int().positive();
export const EpochMs = z.number().int();

// A file on this machine that the user chose.
export const PathArg = z.string().min(1).max(4096);
// A model as `service/model`: the service's name (ServiceName), then the model's own name.
export const ModelRef = z.string().trim().min(3).max(300);
// What the user typed to search mail or documents, or to scope a triage run.
export const SearchQuery = z.string().trim().min(1).max(500);
// How many hits one search returns.
export const SearchLimit = z.number().int().min(1).max(200).default(50);
