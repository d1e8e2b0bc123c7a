import { Modal } from '../app/Modal.tsx';
import { useServicesStore } from '../stores/services-store.ts';
import { AddServiceForm } from './AddServiceForm.tsx';
import { ServiceRow } from './ServiceRow.tsx';

// The "Model services" settings screen (DESIGN §5). Opening it asks Skimmer for the saved services and
// nothing else: there is no default service and no setup call.
export function ServicesDialog() {
  const open = useServicesStore((state) => state.open);
  const services = useServicesStore((state) => state.services);
  const loading = useServicesStore((state) => state.loading);
  const listError = useServicesStore((state) => state.listError);
  const onEscape = useServicesStore((state) => state.escape);
  const close = useServicesStore((state) => state.closeDialog);
  if (!open) return null;

  return (
    <Modal label="Model services" testId="services-dialog" onEscape={onEscape} className="services-dialog">
      <div className="dialog-title">
        <h2>Model services</h2>
        <button type="button" className="ghost" data-testid="services-close" onClick={close}>
          Close
        </button>
      </div>
      <p className="muted">
        AI features use only the services you add here. Skimmer contacts a service only when you ask it to,
        for example with “List models”.
      </p>
      {listError && (
        <p className="warning" role="alert" data-testid="services-error">
          {listError}
        </p>
      )}
      {loading && services.length === 0 && <p className="muted">Loading the saved services…</p>}
      {services.length > 0 ? (
        <ul className="service-list" aria-label="Saved services">
          {services.map((service) => (
            <ServiceRow key={service.id} service={service} />
          ))}
        </ul>
      ) : (
        !loading &&
        !listError && (
          <p className="service-list-empty" data-testid="services-empty">
            No services yet. Add one below: a server on this computer (Ollama, LM Studio, llama.cpp, vLLM) or
            a hosted API.
          </p>
        )
      )}
      <AddServiceForm />
    </Modal>
  );
}
