import { useState } from 'react';
import { useAskStore } from '../stores/ask-store.ts';
import { Modal } from './Modal.tsx';

// The dialog of ask-store.ts: its question, a name field when it asks for one, Cancel and the confirm button
// (Enter confirms, Esc cancels). Keyed by the question so each one starts from its own value.
export function AskDialog() {
  const question = useAskStore((state) => state.question);
  if (question === null) return null;
  return <AskForm key={`${question.title}:${question.name?.value ?? ''}`} />;
}

function AskForm() {
  const question = useAskStore((state) => state.question);
  const answer = useAskStore((state) => state.answer);
  const [name, setName] = useState(question?.name?.value ?? '');
  if (question === null) return null;
  const blank = question.name !== undefined && name.trim() === '';

  return (
    <Modal label={question.title} testId="ask-dialog" onEscape={() => answer(null)}>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (!blank) answer(question.name ? name : '');
        }}
      >
        <h2 data-testid="ask-title">{question.title}</h2>
        {question.detail && <p className="muted">{question.detail}</p>}
        {question.name && (
          <label className="ask-name">
            {question.name.label}
            <input
              // biome-ignore lint/a11y/noAutofocus: the dialog exists to take this one name
              autoFocus
              data-testid="ask-name"
              value={name}
              maxLength={question.name.maxLength}
              onChange={(e) => setName(e.target.value)}
            />
          </label>
        )}
        <div className="dialog-actions">
          <button type="button" data-testid="ask-cancel" onClick={() => answer(null)}>
            Cancel
          </button>
          <button
            type="submit"
            className={question.danger ? 'primary danger' : 'primary'}
            data-testid="ask-confirm"
            disabled={blank}
          >
            {question.confirm}
          </button>
        </div>
      </form>
    </Modal>
  );
}
