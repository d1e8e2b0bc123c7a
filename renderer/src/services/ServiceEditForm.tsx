import type { ServiceView } from '../../../shared/contract/index.ts';
import { TextField } from '../settings/TextField.tsx';
import { useServicesStore } from '../stores/services-store.ts';
import { EndpointHint } from './EndpointHint.tsx';
import { VaultNote } from './VaultNote.tsx';

// Edit one saved service in place: its name, its base URL, a new key, or no key at all. The saved key is
// never shown; an empty key field keeps it.
export function ServiceEditForm({ service }: { service: ServiceView }) {
  const edit = useServicesStore((state) => state.edit);
  const setEdit = useServicesStore((state) => state.setEdit);
  const cancel = useServicesStore((state) => state.cancelEdit);
  const save = useServicesStore((state) => state.saveEdit);
  if (!edit || edit.id !== service.id) return null;
  const replacing = edit.key.trim() !== '';

  return (
    <form
      className="service-edit"
      data-testid="service-edit-form"
      aria-label={`Edit ${service.name}`}
      onSubmit={(event) => {
        event.preventDefault();
        void save();
      }}
    >
      <div className="form-grid service-form-grid">
        <TextField
          label="Name"
          testId="service-edit-name"
          value={edit.name}
          onChange={(name) => setEdit({ name })}
        />
        <TextField
          label="Base URL"
          testId="service-edit-url"
          value={edit.baseUrl}
          inputMode="url"
          onChange={(baseUrl) => setEdit({ baseUrl })}
        />
        <div className="wide">
          <EndpointHint kind={service.kind} baseUrl={edit.baseUrl} saveError={edit.error} />
        </div>
        <TextField
          label={
            service.hasKey ? 'Replace the key (leave empty to keep the saved one)' : 'API key (optional)'
          }
          type="password"
          testId="service-edit-key"
          value={edit.key}
          wide
          onChange={(key) => setEdit({ key })}
        />
        {service.hasKey && (
          <label className="check wide">
            <input
              type="checkbox"
              data-testid="service-edit-remove-key"
              checked={edit.removeKey && !replacing}
              disabled={replacing}
              onChange={(event) => setEdit({ removeKey: event.target.checked })}
            />
            <span>Remove the saved key</span>
          </label>
        )}
        <TextField
          label="Price per million input tokens, US dollars (optional: for triage estimates only)"
          testId="service-edit-price"
          value={edit.price}
          inputMode="decimal"
          placeholder="e.g. 0.15"
          wide
          onChange={(price) => setEdit({ price })}
        />
        <div className="wide">
          <VaultNote />
        </div>
      </div>
      {edit.error && (
        <p className="warning" role="alert" data-testid="service-edit-error">
          {edit.error}
        </p>
      )}
      <div className="dialog-actions">
        <button type="button" onClick={cancel}>
          Cancel
        </button>
        <button type="submit" className="primary" data-testid="service-edit-save" disabled={edit.saving}>
          {edit.saving ? 'Saving…' : 'Save changes'}
        </button>
      </div>
    </form>
  );
}
