import { useEffect, useState } from 'react';
import type { ModelTask } from '../../../shared/contract/index.ts';
import { ModelInput } from '../models/ModelInput.tsx';
import { useModelChoicesStore } from '../stores/model-choices-store.ts';

const tasks: { task: ModelTask; label: string; hint: string }[] = [
  { task: 'chat', label: 'Chat', hint: 'e.g. local/llama3.2' },
  { task: 'summary', label: 'Summaries, answers and drafts', hint: 'e.g. local/llama3.2' },
  { task: 'triage', label: 'Triage', hint: 'e.g. dec/gpt-6-luna' },
];

// The model each task uses unless changed where it runs (DESIGN §5, "Choosing a model"): chosen once here from
// the models Skimmer knows (List models on a service below adds its list), or typed.
export function DefaultModels() {
  const error = useModelChoicesStore((state) => state.error);
  return (
    <section className="default-models" aria-label="Default models" data-testid="default-models">
      <h3>Default models</h3>
      <p className="muted">Used by the chat, the reader and triage unless you pick another there.</p>
      <div className="form-grid">
        {tasks.map((t) => (
          <DefaultModelRow key={t.task} {...t} />
        ))}
      </div>
      {error && (
        <p className="warning" role="alert" data-testid="default-models-error">
          {error}
        </p>
      )}
    </section>
  );
}

function DefaultModelRow({ task, label, hint }: { task: ModelTask; label: string; hint: string }) {
  const saved = useModelChoicesStore((state) => state.defaults[task]);
  const saving = useModelChoicesStore((state) => state.saving);
  const setDefault = useModelChoicesStore((state) => state.setDefault);
  const [value, setValue] = useState(saved ?? '');
  useEffect(() => setValue(saved ?? ''), [saved]);
  const changed = value.trim() !== (saved ?? '');

  return (
    <form
      className="field wide default-model"
      onSubmit={(event) => {
        event.preventDefault();
        void setDefault(task, value.trim() === '' ? null : value.trim());
      }}
    >
      <span>{label}</span>
      <ModelInput
        task={task}
        testId={`default-model-${task}`}
        value={value}
        placeholder={hint}
        onChange={setValue}
      />
      <button
        type="submit"
        className="small"
        data-testid={`default-model-${task}-save`}
        disabled={!changed || saving !== null}
      >
        {saving === task ? 'Saving…' : value.trim() === '' && saved ? 'Clear' : 'Save'}
      </button>
    </form>
  );
}
