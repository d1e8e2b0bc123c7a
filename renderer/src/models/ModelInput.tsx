import { useId, useMemo } from 'react';
import type { ModelTask } from '../../../shared/contract/index.ts';
import { canChat } from '../chat/model-ref.ts';
import { useModelChoicesStore } from '../stores/model-choices-store.ts';
import { modelOptions } from './model-options.ts';

type Props = {
  task: ModelTask;
  value: string;
  onChange(model: string): void;
  testId: string;
  /** Models used before in this place (conversations, triage jobs), offered after the default. */
  used?: readonly string[];
  placeholder?: string;
  ariaLabel?: string;
};

// Every model field (chat, summaries, documents, triage, the defaults in Settings): a picker of the models Skimmer
// knows — the task's default, used ones, the services' listed models — in which a typed `service/model` is still
// allowed (DESIGN §5, "Choosing a model").
export function ModelInput({ task, value, onChange, testId, used = [], placeholder, ariaLabel }: Props) {
  const listId = useId();
  const defaults = useModelChoicesStore((state) => state.defaults);
  const lists = useModelChoicesStore((state) => state.lists);
  const options = useMemo(
    () =>
      modelOptions({
        defaultModel: defaults[task],
        used,
        lists,
        // Judging takes any service; the chat and summaries need one that chats.
        ...(task === 'triage' ? {} : { kinds: canChat }),
      }),
    [defaults, task, used, lists],
  );
  return (
    <>
      <input
        data-testid={testId}
        list={listId}
        value={value}
        placeholder={placeholder ?? 'service/model'}
        aria-label={ariaLabel}
        maxLength={300}
        autoComplete="off"
        spellCheck={false}
        onChange={(event) => onChange(event.target.value)}
      />
      <datalist id={listId} data-testid={`${testId}-options`}>
        {options.map((ref) => (
          <option key={ref} value={ref} label={ref === defaults[task] ? 'default' : undefined} />
        ))}
      </datalist>
    </>
  );
}
