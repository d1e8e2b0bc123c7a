import type { ServiceView } from '../../../shared/contract.ts';
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
    <li className="service-row" data-testid="service-row" data-service-name={service.name}>
      <div className="service-head">
        <strong className="service-name">{service.name}</strong>
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
        <div className="remove-confirm" role="alertdialog" aria-label={`Remove ${service.name}?`}>
          <span>
            Remove “{service.name}”{service.hasKey ? ' and its saved key' : ''}? This cannot be undone.
          </span>
          <button type="button" onClick={cancelRemove} disabled={removing}>
            Cancel
          </button>
          <button
            type="button"
            className="danger"
            data-testid="service-remove-confirm"
            disabled={removing}
            onClick={() => void remove()}
          >
            {removing ? 'Removing…' : 'Remove'}
          </button>
        </div>
      )}
      {!editing && !confirming && (
        <div className="service-actions">
          <button
            type="button"
            data-testid="service-test"
            disabled={test?.status === 'testing'}
            aria-busy={test?.status === 'testing'}
            onClick={() => void testConnection(service.id)}
          >
            {test?.status === 'testing' ? 'Testing…' : 'Test connection'}
          </button>
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
      {test?.status === 'done' && (
        <p className={test.ok ? 'muted' : 'warning'} role="status" data-testid="service-test-result">
          {test.message}
        </p>
      )}
      {error && (
        <p className="warning" role="alert" data-testid="service-row-error">
          {error}
        </p>
      )}
      <ModelList id={service.id} />
    </li>
  );
}
