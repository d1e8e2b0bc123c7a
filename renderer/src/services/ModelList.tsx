import { useServicesStore } from '../stores/services-store.ts';

// What "List models" found for one service: the models, the service's reason for not listing them, or
// the failure in Skimmer's words.
export function ModelList({ id }: { id: number }) {
  const result = useServicesStore((state) => state.models[id]);
  if (!result) return null;
  switch (result.status) {
    case 'loading':
      return (
        <p className="muted models-status" data-testid="service-models-loading">
          Asking the service for its models…
        </p>
      );
    case 'listed':
      return result.models.length === 0 ? (
        <p className="muted models-status" data-testid="service-models-empty">
          The service lists no models.
        </p>
      ) : (
        <ul className="model-list" aria-label="Models">
          {result.models.map((model) => (
            <li key={model} data-testid="service-model">
              <code>{model}</code>
            </li>
          ))}
        </ul>
      );
    case 'unlisted':
      return (
        <p className="muted models-status" data-testid="service-models-reason">
          {result.reason}
        </p>
      );
    case 'failed':
      return (
        <p className="warning" role="alert" data-testid="service-models-error">
          {result.error}
        </p>
      );
  }
}
