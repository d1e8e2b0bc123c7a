// Model services: their kind, base URL, key, consent and price (DESIGN §5).
import { z } from 'zod';
import { EpochMs, Id, ModelRef } from './fields.ts';

export const ServiceKind = z.enum(['openai', 'openai-responses', 'anthropic', 'decisions', 'systemone']);
export type ServiceKind = z.infer<typeof ServiceKind>;
// A service name is the part before the first "/" in `service/model`.
const ServiceName = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, 'use 1–64 letters, digits, dots, dashes or underscores')
  .max(64);
// A key is written once and never returned: views carry `hasKey` only.
const ApiKey = z.string().trim().min(1).max(4096);
// Checked in full by shared/service-url.ts before anything is stored.
const BaseUrl = z.string().min(1).max(2048);

export const ServiceView = z.object({
  id: Id,
  name: z.string(),
  kind: ServiceKind,
  baseUrl: z.string(),
  endpoint: z.string(),
  version: z.number().int().positive(),
  hasKey: z.boolean(),
  // Not on this computer: mail and document text go there only with the user's consent (`mailAllowed`).
  remote: z.boolean(),
  mailAllowed: z.boolean(),
  // What the user said the service charges, US dollars per million input tokens (for estimates only).
  inputPrice: z.number().nonnegative().nullable(),
});
export type ServiceView = z.infer<typeof ServiceView>;

export const serviceChannels = {
  'service:list': {
    request: z.object({}).strict(),
    response: z.array(ServiceView),
  },
  'service:add': {
    request: z
      .object({
        name: ServiceName,
        kind: ServiceKind,
        baseUrl: BaseUrl,
        key: ApiKey.optional(),
      })
      .strict(),
    response: ServiceView,
  },
  'service:update': {
    request: z
      .object({
        id: Id,
        name: ServiceName.optional(),
        baseUrl: BaseUrl.optional(),
        key: ApiKey.optional(),
        removeKey: z.literal(true).optional(),
      })
      .strict(),
    response: ServiceView,
  },
  'service:price': {
    // Bookkeeping for the triage estimate: no network, no new version, consent unchanged.
    request: z.object({ id: Id, inputPrice: z.number().min(0).max(10_000).nullable() }).strict(),
    response: ServiceView,
  },
  'service:models': {
    // An explicit user action: the only channel here that contacts the service.
    request: z.object({ id: Id }).strict(),
    response: z.discriminatedUnion('listed', [
      z.object({ listed: z.literal(true), models: z.array(z.string()) }),
      z.object({ listed: z.literal(false), reason: z.string() }),
    ]),
  },
  'service:test': {
    // "Test connection": an explicit user action; reaches the service's model list with the saved key.
    request: z.object({ id: Id }).strict(),
    response: z.object({ ok: z.boolean(), message: z.string() }),
  },
  'service:consent': {
    // The user's answer to "send mail and documents to <endpoint>?" for a service not on this computer.
    request: z.object({ id: Id, allow: z.boolean() }).strict(),
    response: ServiceView,
  },
  'service:remove': {
    request: z.object({ id: Id }).strict(),
    response: z.object({ removed: z.boolean() }),
  },
} as const;

// One model choice (DESIGN §5, "Choosing a model"): each task's default model, and the models each service
// listed when the user last asked ("List models"), which the pickers offer without asking the service again.
export const ModelTask = z.enum(['chat', 'summary', 'triage']);
export type ModelTask = z.infer<typeof ModelTask>;
export const ModelDefaults = z.object({
  chat: z.string().nullable(),
  summary: z.string().nullable(),
  triage: z.string().nullable(),
});
export type ModelDefaults = z.infer<typeof ModelDefaults>;
export const ServiceModels = z.object({
  service: z.string(),
  kind: ServiceKind,
  // null: never listed, or listed before the service's settings changed.
  models: z.array(z.string()).nullable(),
  listedAt: EpochMs.nullable(),
});
export type ServiceModels = z.infer<typeof ServiceModels>;

export const modelChannels = {
  'model:defaults': {
    request: z.object({}).strict(),
    response: ModelDefaults,
  },
  'model:setDefault': {
    // null clears the task's default; a model of a service that does not exist is not_found.
    request: z.object({ task: ModelTask, model: ModelRef.nullable() }).strict(),
    response: ModelDefaults,
  },
  'model:lists': {
    request: z.object({}).strict(),
    response: z.array(ServiceModels),
  },
} as const;
