import { useMemo } from 'react';
import { ModelInput } from '../models/ModelInput.tsx';
import { useChatStore } from '../stores/chat-store.ts';
import { useServicesStore } from '../stores/services-store.ts';

// The model for the next message: the chat's default (Settings) unless changed here, picked from what Skimmer
// already knows (models used in conversations, the lists the user asked for) or typed as `service/model`.
// "List models" is the one action here that contacts a service (DESIGN §5).
export function ModelField() {
  const model = useChatStore((state) => state.model);
  const note = useChatStore((state) => state.modelNote);
  const conversations = useChatStore((state) => state.conversations);
  const listingFor = useChatStore((state) => state.listingFor);
  const setModel = useChatStore((state) => state.setModel);
  const listModels = useChatStore((state) => state.listModels);
  const services = useServicesStore((state) => state.services);
  const models = useServicesStore((state) => state.models);
  const result = listingFor === null ? undefined : models[listingFor];
  const listedService = services.find((s) => s.id === listingFor)?.name ?? 'the service';

  const used = useMemo(() => conversations.map((c) => c.model), [conversations]);

  return (
    <div className="model-field">
      <label className="model-input">
        <span>Model</span>
        <ModelInput
          task="chat"
          testId="chat-model"
          value={model}
          used={used}
          placeholder="service/model, e.g. local/llama3.2"
          onChange={setModel}
        />
      </label>
      <button
        type="button"
        data-testid="chat-list-models"
        disabled={result?.status === 'loading'}
        aria-busy={result?.status === 'loading'}
        onClick={() => void listModels()}
      >
        {result?.status === 'loading' ? 'Listing models…' : 'List models'}
      </button>
      <div className="model-status" aria-live="polite">
        {note ? (
          <span className="hint-problem" data-testid="chat-model-note">
            {note}
          </span>
        ) : result?.status === 'listed' ? (
          <span className="muted" data-testid="chat-models-listed">
            {result.models.length === 0
              ? `${listedService} lists no models.`
              : `${result.models.length} ${result.models.length === 1 ? 'model' : 'models'} from ${listedService}: pick one in the field.`}
          </span>
        ) : result?.status === 'unlisted' ? (
          <span className="muted">{result.reason}</span>
        ) : result?.status === 'failed' ? (
          <span className="hint-problem" role="alert">
            {result.error}
          </span>
        ) : null}
      </div>
    </div>
  );
}
