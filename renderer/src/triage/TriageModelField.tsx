import { useMemo } from 'react';
import { modelSuggestions } from '../chat/model-ref.ts';
import { useServicesStore } from '../stores/services-store.ts';
import { useTriageStore } from '../stores/triage-store.ts';

// The model that answers, typed as `service/model` like the chat's field. Any saved service can judge (a
// decisions or System One service, or a chat model answering yes/no), so every service name is offered;
// suggestions are only what Skimmer already knows: models earlier jobs used and the services' names.
export function TriageModelField() {
  const model = useTriageStore((state) => state.model);
  const jobs = useTriageStore((state) => state.jobs);
  const setModel = useTriageStore((state) => state.setModel);
  const services = useServicesStore((state) => state.services);

  const suggestions = useMemo(
    () =>
      modelSuggestions(
        jobs.map((job) => job.model),
        [],
        services.map((s) => s.name),
      ),
    [jobs, services],
  );

  return (
    <label className="triage-field">
      <span>Model</span>
      <input
        data-testid="triage-model"
        list="triage-model-options"
        value={model}
        placeholder="service/model, e.g. dec/gpt-6-luna"
        maxLength={300}
        autoComplete="off"
        spellCheck={false}
        onChange={(event) => setModel(event.target.value)}
      />
      <datalist id="triage-model-options">
        {suggestions.map((ref) => (
          <option key={ref} value={ref} />
        ))}
      </datalist>
    </label>
  );
}
