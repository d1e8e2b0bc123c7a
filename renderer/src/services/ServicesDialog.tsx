import { SavedListDialog } from '../settings/SavedListDialog.tsx';
import { useServicesStore } from '../stores/services-store.ts';
import { AddServiceForm } from './AddServiceForm.tsx';
import { DefaultModels } from './DefaultModels.tsx';
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
    <SavedListDialog
      title="Model services"
      testId="services"
      intro="AI features use only the services you add here. Skimmer contacts a service only when you ask it to, for example with “List models”."
      items={services}
      row={(service) => <ServiceRow key={service.id} service={service} />}
      listLabel="Saved services"
      loading={loading}
      loadingText="Loading the saved services…"
      listError={listError}
      emptyText="No services yet. Add one below: a server on this computer (Ollama, LM Studio, llama.cpp, vLLM) or a hosted API."
      onEscape={onEscape}
      onClose={close}
    >
      <DefaultModels />
      <AddServiceForm />
    </SavedListDialog>
  );
}
