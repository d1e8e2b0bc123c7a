import { useMemo } from 'react';
import { useChatStore } from '../stores/chat-store.ts';
import { useServicesStore } from '../stores/services-store.ts';
import { canChat, type ListedModels, modelSuggestions } from './model-ref.ts';

// The model for the next message, typed freely as `service/model`. Suggestions are only what Skimmer already
// knows: models used in conversations and the lists the user asked for; "List models" is the one action here
// that contacts a service (DESIGN §5).
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

  const suggestions = useMemo(() => {
    const chat = services.filter((s) => canChat(s.kind));
    const listed: ListedModels[] = chat.flatMap((s) => {
      const r = models[s.id];
      return r?.status === 'listed' ? [{ service: s.name, models: r.models }] : [];
    });
    return modelSuggestions(
      conversations.map((c) => c.model),
      listed,
      chat.map((s) => s.name),
    );
  }, [conversations, services, models]);

  return (
    <div className="model-field">
      <label className="model-input">
        <span>Model</span>
        <input
          data-testid="chat-model"
          list="chat-model-options"
          value={model}
          placeholder="service/model, e.g. local/llama3.2"
          maxLength={300}
          autoComplete="off"
          spellCheck={false}
          onChange={(event) => setModel(event.target.value)}
        />
      </label>
      <datalist id="chat-model-options" data-testid="chat-model-options">
        {suggestions.map((ref) => (
          <option key={ref} value={ref} />
        ))}
      </datalist>
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
