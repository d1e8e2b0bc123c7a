import type { LiveTurn, ShownTurn } from '../stores/chat-store.ts';
import { ChatErrorBox } from './ChatErrorBox.tsx';
import { RetryNotice } from './RetryNotice.tsx';
import { usageText } from './usage-text.ts';

// SECURITY: model output is untrusted text (it may quote mail): rendered as React text, escaped, with no
// markdown, no links and no images, so nothing in an answer can load or open anything (DESIGN §8).

function TurnBody({ text }: { text: string }) {
  return (
    <div className="turn-text" data-testid="chat-turn-text">
      {text}
    </div>
  );
}

// A turn that has ended: read back from storage, or finished in this session (then with how it ended).
export function TurnView({ turn }: { turn: ShownTurn }) {
  const assistant = turn.role === 'assistant';
  return (
    <li
      className={`chat-turn ${turn.role}`}
      data-testid="chat-turn"
      data-role={turn.role}
      data-outcome={turn.outcome ?? 'stored'}
    >
      <div className="turn-who">{assistant ? 'Model' : 'You'}</div>
      {turn.text !== '' && <TurnBody text={turn.text} />}
      {assistant && turn.text === '' && turn.outcome === 'done' && (
        <p className="muted turn-note">The model sent no text.</p>
      )}
      {turn.outcome === 'stopped' && (
        <p className="turn-note stopped" data-testid="chat-stopped">
          {turn.note ?? 'Stopped. What arrived is kept.'}
        </p>
      )}
      {turn.error && <ChatErrorBox error={turn.error} />}
      {turn.usage && (
        <p className="turn-usage" data-testid="chat-usage">
          {usageText(turn.usage)}
        </p>
      )}
    </li>
  );
}

// The answer while it streams: what arrived so far, the retry countdown, and its usage once reported.
export function LiveAnswer({ live }: { live: LiveTurn }) {
  return (
    <li
      className="chat-turn assistant live"
      data-testid="chat-turn"
      data-role="assistant"
      data-outcome="streaming"
      aria-busy="true"
    >
      <div className="turn-who">Model</div>
      {live.text !== '' && <TurnBody text={live.text} />}
      {live.retry && <RetryNotice key={live.retry.until} until={live.retry.until} code={live.retry.code} />}
      {live.text === '' && !live.retry && (
        <p className="muted turn-note" data-testid="chat-waiting">
          {live.status === 'stopping' ? 'Stopping…' : 'Waiting for the model…'}
        </p>
      )}
      {live.text !== '' && live.status === 'stopping' && <p className="muted turn-note">Stopping…</p>}
      {live.usage && (
        <p className="turn-usage" data-testid="chat-usage">
          {usageText(live.usage)}
        </p>
      )}
    </li>
  );
}
