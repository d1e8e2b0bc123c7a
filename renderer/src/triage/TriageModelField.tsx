import { useMemo } from 'react';
import { ModelInput } from '../models/ModelInput.tsx';
import { useTriageStore } from '../stores/triage-store.ts';

// The model that answers: the triage default (Settings) unless changed here, picked or typed as `service/model`
// like the chat's. Any saved service can judge (a decisions or System One service, or a chat model answering
// yes/no); earlier jobs' models are offered after the default.
export function TriageModelField() {
  const model = useTriageStore((state) => state.model);
  const jobs = useTriageStore((state) => state.jobs);
  const setModel = useTriageStore((state) => state.setModel);
  const used = useMemo(() => jobs.map((job) => job.model), [jobs]);

  return (
    <label className="triage-field">
      <span>Model</span>
      <ModelInput
        task="triage"
        testId="triage-model"
        value={model}
        used={used}
        placeholder="service/model, e.g. dec/gpt-6-luna"
        onChange={setModel}
      />
    </label>
  );
}
