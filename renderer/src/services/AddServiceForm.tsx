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
    <form
      className="service-form"
      data-testid="service-form"
      aria-label="Add service"
      onSubmit={(event) => {
        event.preventDefault();
        void add();
      }}
    >
      <h3>Add service</h3>
      <div className="service-form-grid">
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
        <label className="field">
          <span>Name</span>
          <input
            data-testid="service-name-input"
            value={draft.name}
            placeholder="ollama"
            autoComplete="off"
            spellCheck={false}
            onChange={(event) => setDraft({ name: event.target.value })}
          />
        </label>
        <label className="field">
          <span>Base URL</span>
          <input
            data-testid="service-url-input"
            value={draft.baseUrl}
            placeholder={kindText[draft.kind].placeholder}
            autoComplete="off"
            spellCheck={false}
            inputMode="url"
            onChange={(event) => setDraft({ baseUrl: event.target.value })}
          />
        </label>
        <div className="wide">
          <EndpointHint kind={draft.kind} baseUrl={draft.baseUrl} saveError={error} />
        </div>
        <label className="field wide">
          <span>API key (optional: local servers often need none)</span>
          <input
            type="password"
            data-testid="service-key-input"
            value={draft.key}
            autoComplete="off"
            spellCheck={false}
            onChange={(event) => setDraft({ key: event.target.value })}
          />
        </label>
        <div className="wide">
          <VaultNote />
        </div>
      </div>
      {error && (
        <p className="warning" role="alert" data-testid="service-form-error">
          {error}
        </p>
      )}
      {added && !error && (
        <p className="saved-note" role="status" data-testid="service-saved">
          Saved “{added.name}”. Requests will go to <code>{added.endpoint}</code>
        </p>
      )}
      <div className="dialog-actions">
        <button type="submit" className="primary" data-testid="service-save" disabled={adding}>
          {adding ? 'Saving…' : 'Save service'}
        </button>
      </div>
    </form>
  );
}
