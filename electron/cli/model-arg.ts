// The model a command asks (DESIGN §5, "Choosing a model"): named as its first word (`skimmer judge dec/m …`, as
// before) or with --model, as `draft reply` and `resume` take it; neither, the task's default from Settings, as
// the app's fields start from. Both, and they differ: the line is refused rather than one of them guessed.
// `skimmer ask` takes words after the model (its prompt), so there the first word is the model only when it is
// shaped as one (`modelShaped`).
import type { ModelTask } from '../../shared/contract/index.ts';
import { AssistantError } from '../ai/assistant-error.ts';
import type { App } from '../app.ts';
import { UsageError } from './failures.ts';

/**
 * A word written as `service/model`: something, a slash, something, no space. A prompt's first word is hardly
 * ever one (and a prompt that starts with one is named with --model, which makes every word the prompt); a
 * mistyped service still reads as a model, so it is refused by name instead of being sent to the default.
 */
export function modelShaped(word: string | undefined): word is string {
  return word !== undefined && /^[^\s/]+\/\S+$/.test(word);
}

export function modelOf(
  app: Pick<App, 'modelChoices'>,
  task: ModelTask,
  named: { word: string | undefined; flag: string | undefined },
): string {
  if (named.word !== undefined && named.flag !== undefined && named.word !== named.flag) {
    throw new UsageError(`Name the model once: "${named.word}" or --model ${named.flag}.`);
  }
  try {
    return app.modelChoices.modelFor(task, named.flag ?? named.word);
  } catch (e) {
    // "Choose a model: …": what to write instead, as a usage mistake is.
    if (e instanceof AssistantError) throw new UsageError(e.message);
    throw e;
  }
}
