import { AddForm } from '../settings/AddForm.tsx';
import { TextField } from '../settings/TextField.tsx';
import { useServicesStore } from '../stores/services-store.ts';
import { EndpointHint } from './EndpointHint.tsx';
import { isServiceKind, kindText, serviceKinds } from './service-kinds.ts';
import { VaultNote } from './VaultNote.tsx';

// "Add service": saving checks the address in Skimmer and stores the key; it never contacts the service.
export function AddServiceForm() {
  const draft = useServicesStore((state) => state.draft);
  const adding = useServicesStore((state) => state.adding);
  const error = useServicesStore((state) => state.addError);
  const added = useServicesStore((state) => state.added);
  const setDraft = useServicesStore((state) => state.setDraft);
  const add = useServicesStore((state) => state.add);

  return (
    <AddForm
      title="Add service"
      testId="service"
      error={error}
      saved={
        added && (
          <>
            Saved “{added.name}”. Requests will go to <code>{added.endpoint}</code>
          </>
        )
      }
      adding={adding}
      saveLabel="Save service"
      onSave={() => void add()}
    >
      <div className="form-grid service-form-grid">
        <label className="field wide">
          <span>Kind</span>
          <select
            data-testid="service-kind-input"
            value={draft.kind}
            onChange={(event) => {
              if (isServiceKind(event.target.value)) setDraft({ kind: event.target.value });
            }}
          >
            {serviceKinds.map((kind) => (
              <option key={kind} value={kind}>
                {kindText[kind].label}
              </option>
            ))}
          </select>
        </label>
        <TextField
          label="Name"
          testId="service-name-input"
          value={draft.name}
          placeholder="ollama"
          onChange={(name) => setDraft({ name })}
        />
        <TextField
          label="Base URL"
          testId="service-url-input"
          value={draft.baseUrl}
          placeholder={kindText[draft.kind].placeholder}
          inputMode="url"
          onChange={(baseUrl) => setDraft({ baseUrl })}
        />
        <div className="wide">
          <EndpointHint kind={draft.kind} baseUrl={draft.baseUrl} saveError={error} />
        </div>
        <TextField
          label="API key (optional: local servers often need none)"
          type="password"
          testId="service-key-input"
          value={draft.key}
          wide
          onChange={(key) => setDraft({ key })}
        />
        <div className="wide">
          <VaultNote />
        </div>
      </div>
    </AddForm>
  );
}
