import { formProblem, hasUnsavedEdits, useDraftsStore } from '../stores/drafts-store.ts';
import { addressProblem } from './draft-form.ts';

// The open draft: To and Cc (comma-separated, checked as they are typed), Subject and Body; Save, Send
// (the undo window in the outbox, where Undo stops it) and Discard, which asks first.
export function DraftEditor() {
  const form = useDraftsStore((state) => state.form);
  const busy = useDraftsStore((state) => state.busy);
  const error = useDraftsStore((state) => state.error);
  const saved = useDraftsStore((state) => state.saved);
  const unsaved = useDraftsStore(hasUnsavedEdits);
  const confirmDiscard = useDraftsStore((state) => state.confirmDiscard);
  const edit = useDraftsStore((state) => state.edit);
  const save = useDraftsStore((state) => state.save);
  const send = useDraftsStore((state) => state.send);
  const askDiscard = useDraftsStore((state) => state.askDiscard);
  const cancelDiscard = useDraftsStore((state) => state.cancelDiscard);
  const discard = useDraftsStore((state) => state.discard);
  if (form === null) {
    return <p className="draft-none muted">Open a draft to edit it.</p>;
  }

  const toProblem = addressProblem(form.to);
  const ccProblem = addressProblem(form.cc);
  const blocked = busy !== null || formProblem(form) !== null;

  return (
    <form
      className="draft-editor"
      data-testid="draft-editor"
      aria-label="Draft"
      onSubmit={(event) => {
        event.preventDefault();
        void save();
      }}
    >
      <label className="field">
        To
        <input
          data-testid="draft-to"
          value={form.to}
          placeholder="ann@example.com, bob@example.com"
          aria-invalid={toProblem !== null}
          onChange={(event) => edit({ to: event.target.value })}
        />
      </label>
      {toProblem && (
        <p className="warning" data-testid="draft-to-problem">
          {toProblem}
        </p>
      )}
      <label className="field">
        Cc
        <input
          data-testid="draft-cc"
          value={form.cc}
          aria-invalid={ccProblem !== null}
          onChange={(event) => edit({ cc: event.target.value })}
        />
      </label>
      {ccProblem && (
        <p className="warning" data-testid="draft-cc-problem">
          {ccProblem}
        </p>
      )}
      <label className="field">
        Subject
        <input
          data-testid="draft-subject"
          value={form.subject}
          onChange={(event) => edit({ subject: event.target.value })}
        />
      </label>
      <label className="field">
        Body
        <textarea
          data-testid="draft-body"
          rows={10}
          value={form.body}
          onChange={(event) => edit({ body: event.target.value })}
        />
      </label>
      {error && (
        <p className="warning" role="alert" data-testid="draft-error">
          {error}
        </p>
      )}
      {confirmDiscard ? (
        <div className="dialog-actions draft-confirm" role="alert" data-testid="draft-discard-ask">
          <span>Discard this draft? It cannot be brought back.</span>
          <button type="button" className="ghost" onClick={cancelDiscard} disabled={busy !== null}>
            Keep it
          </button>
          <button
            type="button"
            className="danger"
            data-testid="draft-discard-confirm"
            disabled={busy !== null}
            onClick={() => void discard()}
          >
            Discard
          </button>
        </div>
      ) : (
        <div className="dialog-actions">
          <span className="draft-state muted" data-testid="draft-state" aria-live="polite">
            {busy === 'saving'
              ? 'Saving…'
              : busy === 'sending'
                ? 'Sending…'
                : unsaved
                  ? 'Unsaved changes'
                  : saved
                    ? 'Saved'
                    : ''}
          </span>
          <button
            type="button"
            className="ghost"
            data-testid="draft-discard"
            disabled={busy !== null}
            onClick={askDiscard}
          >
            Discard
          </button>
          <button type="submit" data-testid="draft-save" disabled={blocked || !unsaved}>
            Save
          </button>
          <button
            type="button"
            className="primary"
            data-testid="draft-send"
            disabled={blocked}
            onClick={() => void send()}
          >
            Send
          </button>
        </div>
      )}
    </form>
  );
}
