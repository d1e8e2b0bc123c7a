import type { ReactNode } from 'react';

// The "Add" form of a settings dialog: its fields, Skimmer's refusal or a note of what was saved, and Save,
// which waits while a save runs. Saving asks Skimmer alone.
export function AddForm({
  title,
  testId,
  error,
  saved,
  adding,
  saveLabel,
  onSave,
  children,
}: {
  title: string;
  // Names the form's test ids: `${testId}-form`, `-form-error`, `-saved` and `-save`.
  testId: string;
  error: string | null;
  // What was just saved, in a sentence; shown only while there is no error.
  saved: ReactNode;
  adding: boolean;
  saveLabel: string;
  onSave(): void;
  children: ReactNode;
}) {
  return (
    <form
      className="add-form"
      data-testid={`${testId}-form`}
      aria-label={title}
      onSubmit={(event) => {
        event.preventDefault();
        onSave();
      }}
    >
      <h3>{title}</h3>
      {children}
      {error && (
        <p className="warning" role="alert" data-testid={`${testId}-form-error`}>
          {error}
        </p>
      )}
      {saved && !error && (
        <p className="saved-note" role="status" data-testid={`${testId}-saved`}>
          {saved}
        </p>
      )}
      <div className="dialog-actions">
        <button type="submit" className="primary" data-testid={`${testId}-save`} disabled={adding}>
          {adding ? 'Saving…' : saveLabel}
        </button>
      </div>
    </form>
  );
}
