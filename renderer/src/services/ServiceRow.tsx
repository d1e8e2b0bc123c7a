import type { ServiceView } from '../../../shared/contract/index.ts';
import { RemoveConfirm } from '../settings/RemoveConfirm.tsx';
import { TestButton, TestResultNote } from '../settings/TestButton.tsx';
import { useServicesStore } from '../stores/services-store.ts';
import { ModelList } from './ModelList.tsx';
import { ServiceConsent } from './ServiceConsent.tsx';
import { ServiceEditForm } from './ServiceEditForm.tsx';
import { kindText } from './service-kinds.ts';

// One saved service: what it is, the exact endpoint Skimmer computed for it, whether a key is saved (never
// the key), and its actions. "Test connection" and "List models" are the only ones that contact the service.
export function ServiceRow({ service }: { service: ServiceView }) {
  const editing = useServicesStore((state) => state.edit?.id === service.id);
  const confirming = useServicesStore((state) => state.confirmRemove === service.id);
  const removing = useServicesStore((state) => state.removing);
  const listing = useServicesStore((state) => state.models[service.id]?.status === 'loading');
  const error = useServicesStore((state) => state.rowErrors[service.id]);
  const listModels = useServicesStore((state) => state.listModels);
  const test = useServicesStore((state) => state.tests[service.id]);
  const testConnection = useServicesStore((state) => state.testConnection);
  const startEdit = useServicesStore((state) => state.startEdit);
  const askRemove = useServicesStore((state) => state.askRemove);
  const cancelRemove = useServicesStore((state) => state.cancelRemove);
  const remove = useServicesStore((state) => state.remove);

  return (
    <li className="saved-row" data-testid="service-row" data-service-name={service.name}>
      <div className="saved-row-head">
        <strong className="saved-row-name">{service.name}</strong>
        <span className="service-kind">{kindText[service.kind].short}</span>
        <span className={service.hasKey ? 'key-badge saved' : 'key-badge'} data-testid="service-key">
          {service.hasKey ? 'Key saved' : 'No key'}
        </span>
      </div>
      <div className="service-endpoint">
        <span className="muted">Requests go to </span>
        <code data-testid="service-endpoint">{service.endpoint}</code>
      </div>
      {!editing && <ServiceConsent service={service} />}
      {editing && <ServiceEditForm service={service} />}
      {confirming && (
        <RemoveConfirm
          name={service.name}
          testId="service-remove-confirm"
          removing={removing}
          onCancel={cancelRemove}
          onRemove={() => void remove()}
        >
          Remove “{service.name}”{service.hasKey ? ' and its saved key' : ''}? This cannot be undone.
        </RemoveConfirm>
      )}
      {!editing && !confirming && (
        <div className="saved-row-actions">
          <TestButton
            testId="service-test"
            label="Test connection"
            test={test}
            onTest={() => void testConnection(service.id)}
          />
          <button
            type="button"
            data-testid="service-models"
            disabled={listing}
            aria-busy={listing}
            onClick={() => void listModels(service.id)}
          >
            {listing ? 'Listing models…' : 'List models'}
          </button>
          <button type="button" data-testid="service-edit" onClick={() => startEdit(service.id)}>
            Edit
          </button>
          <button type="button" data-testid="service-remove" onClick={() => askRemove(service.id)}>
            Remove
          </button>
        </div>
      )}
      <TestResultNote testId="service-test-result" test={test} />
      {error && (
        <p className="warning" role="alert" data-testid="service-row-error">
          {error}
        </p>
      )}
      <ModelList id={service.id} />
    </li>
  );
}
