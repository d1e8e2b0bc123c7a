import { useServicesStore } from '../stores/services-store.ts';

// Chat needs a service the user added: there is no default one (DESIGN §5), so the pane says so and offers
// the Services screen instead of a composer.
export function NoChatService() {
  const anyService = useServicesStore((state) => state.services.length > 0);
  const openServices = useServicesStore((state) => state.openDialog);

  return (
    <div className="chat-no-service" data-testid="chat-no-service">
      <p>
        {anyService
          ? 'None of the saved services can chat: OpenAI Decisions and System One answer judge questions only. Add a chat service to start.'
          : 'Chat needs a model service, and none is set up. Skimmer has no default service: add your own, a server on this computer (Ollama, LM Studio, llama.cpp, vLLM) or a hosted API.'}
      </p>
      <button type="button" className="primary" data-testid="chat-services-open" onClick={openServices}>
        Open Services…
      </button>
    </div>
  );
}
