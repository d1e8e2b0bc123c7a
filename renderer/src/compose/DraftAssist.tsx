// The composer's part of "Draft reply" (issue 17; DESIGN §12, "Drafted replies"): instructions and "Draft with
// AI" for a reply, the citations of a drafted reply as chips (each opens its message in the reader), and under the
// body what it says that no message of the thread holds, checked again on every edit.
import { useMemo } from 'react';
import { unverifiedFacts, writtenPart } from '../../../shared/compose/thread-facts.ts';
import { displayText } from '../mail/display-text.ts';
import { useComposeStore } from '../stores/compose-store.ts';
import { useReplyDraftStore } from '../stores/reply-draft-store.ts';

/** Instructions and "Draft with AI", for a draft that answers a message. */
export function DraftWithAi() {
  const inReplyTo = useComposeStore((state) => state.inReplyTo);
  const kind = useComposeStore((state) => state.kind);
  const instructions = useReplyDraftStore((state) => state.instructions);
  const running = useReplyDraftStore((state) => state.running);
  const error = useReplyDraftStore((state) => state.error);
  const setInstructions = useReplyDraftStore((state) => state.setInstructions);
  const draft = useReplyDraftStore((state) => state.draft);
  const stop = useReplyDraftStore((state) => state.stop);
  if (inReplyTo === null) return null;
  return (
    <div className="compose-assist" data-testid="composer-assist">
      <input
        className="compose-instructions"
        data-testid="composer-instructions"
        aria-label="Instructions for the drafted reply"
        placeholder="Instructions (optional): decline politely, say yes to the 14th…"
        value={instructions}
        disabled={running !== null}
        onChange={(event) => setInstructions(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Enter' && !event.ctrlKey && !event.metaKey) {
            event.preventDefault();
            void draft(inReplyTo, kind === 'all');
          }
        }}
      />
      {running ? (
        <button
          type="button"
          className="ghost small"
          data-testid="composer-ai-stop"
          onClick={() => void stop()}
        >
          {running.stopping ? 'Stopping…' : 'Stop'}
        </button>
      ) : (
        <button
          type="button"
          className="ghost small"
          data-testid="composer-draft-ai"
          title="The model drafts this reply from the thread; you check it before sending"
          onClick={() => void draft(inReplyTo, kind === 'all')}
        >
          Draft with AI
        </button>
      )}
      {running && (
        <span className="muted" aria-live="polite">
          Drafting…
        </span>
      )}
      {error && error.messageId === inReplyTo && (
        <span className="warning" role="alert" data-testid="composer-ai-error">
          {error.failure.message}
        </span>
      )}
    </div>
  );
}

/** The citations beside a drafted reply's body, and its note about the bounds. */
export function ReplyCitations() {
  const draftId = useComposeStore((state) => state.draftId);
  const assist = useReplyDraftStore((state) => (state.assist?.draftId === draftId ? state.assist : null));
  const showCited = useReplyDraftStore((state) => state.showCited);
  if (!assist) return null;
  return (
    <div className="compose-citations" data-testid="composer-citations">
      {assist.cited ? (
        <>
          <span className="muted">Drafted from:</span>
          {assist.citations.map((c, i) => (
            <button
              key={c.id}
              type="button"
              className="chip citation"
              data-testid="composer-citation"
              data-message-id={c.messageId}
              title={`${displayText(c.title)} (checked to exist, not checked to be true)`}
              onClick={() => showCited(c.messageId)}
            >
              [{i + 1}] {displayText(c.title)}
            </button>
          ))}
        </>
      ) : (
        <span className="muted" data-testid="composer-uncited">
          Uncited draft: the model cited no message of the thread.
        </span>
      )}
      {assist.note && <span className="muted">{assist.note}</span>}
    </div>
  );
}

/** What the body says that no message of the thread holds, for a drafted reply, as the user edits it. */
export function UnverifiedFlags() {
  const draftId = useComposeStore((state) => state.draftId);
  const body = useComposeStore((state) => state.form?.body ?? '');
  const known = useReplyDraftStore((state) =>
    state.assist?.draftId === draftId ? state.assist.known : null,
  );
  const flags = useMemo(() => (known ? unverifiedFacts(writtenPart(body), known) : []), [body, known]);
  if (flags.length === 0) return null;
  return (
    <ul
      className="compose-unverified"
      data-testid="composer-unverified"
      aria-label="Not found in the messages cited"
    >
      {flags.map((f) => (
        <li key={f.text} className="warning" data-testid="composer-unverified-item">
          <strong>{f.text}</strong>: {f.reason}
        </li>
      ))}
    </ul>
  );
}
