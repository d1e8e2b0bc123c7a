// The chat's model field holds `service/model` (DESIGN §5: the first "/" ends the service name; model ids may
// contain more). Suggestions come only from what is already known without asking a service: models used in
// stored conversations, the lists the user asked for with "List models", and the names of the saved
// services that can chat. Pure; tested in model-ref.test.ts.
import type { ServiceKind } from '../../../shared/contract/index.ts';

// The kinds that answer chat (DESIGN §5); the decision kinds answer judge questions only.
const chatKinds: ReadonlySet<ServiceKind> = new Set(['openai', 'openai-responses', 'anthropic']);

export const canChat = (kind: ServiceKind): boolean => chatKinds.has(kind);

export const modelRefHint = 'Name the model as service/model, for example local/llama3.2.';

export function isModelRef(ref: string): boolean {
  const slash = ref.indexOf('/');
  return slash > 0 && slash < ref.length - 1;
}

// The service part of a reference, or null while none is typed.
export function serviceOf(ref: string): string | null {
  const slash = ref.indexOf('/');
  return slash > 0 ? ref.slice(0, slash) : null;
}

export type ListedModels = { service: string; models: readonly string[] };

// Used models first (the conversation list is newest first), then listed ones, then bare `service/` prefixes
// to start from; each once.
export function modelSuggestions(
  used: readonly string[],
  listed: readonly ListedModels[],
  serviceNames: readonly string[],
): string[] {
  const all = [
    ...used,
    ...listed.flatMap(({ service, models }) => models.map((model) => `${service}/${model}`)),
    ...serviceNames.map((name) => `${name}/`),
  ];
  return [...new Set(all.filter((ref) => ref.trim() !== ''))];
}
