// What a model field offers (DESIGN §5, "Choosing a model"): the task's default first, the models used before,
// every model the services listed when the user asked (kept by Skimmer), then each service's name to start a
// typed one from. Only services that can do the task: judging takes any service, chat and summaries only the
// kinds that chat. Pure; tested in model-options.test.ts.
import type { ServiceKind, ServiceModels } from '../../../shared/contract/index.ts';
import { modelSuggestions } from '../chat/model-ref.ts';

export type ModelOptionsInput = {
  defaultModel: string | null;
  used: readonly string[];
  lists: readonly ServiceModels[];
  /** Which kinds of service can answer; all when absent. */
  kinds?: (kind: ServiceKind) => boolean;
};

export function modelOptions({ defaultModel, used, lists, kinds = () => true }: ModelOptionsInput): string[] {
  const able = lists.filter((s) => kinds(s.kind));
  return modelSuggestions(
    [...(defaultModel ? [defaultModel] : []), ...used],
    able.map((s) => ({ service: s.service, models: s.models ?? [] })),
    able.map((s) => s.service),
  );
}
