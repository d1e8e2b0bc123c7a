import { useUndoStore } from '../stores/undo-store.ts';

// "Archived 2 messages · Undo": what the assistant's last run (or the user's last Archive or Trash) changed in
// the mail, and the way back. Shown in the chat pane and above the mail list, so the user can take it back from
// wherever they check the result. The assistant's changes are named as its own.
export function UndoBar() {
  const batch = useUndoStore((state) => state.batch);
  const summary = useUndoStore((state) => state.summary);
  const by = useUndoStore((state) => state.by);
  const undoing = useUndoStore((state) => state.undoing);
  const undone = useUndoStore((state) => state.undone);
  const undo = useUndoStore((state) => state.undo);
  const dismiss = useUndoStore((state) => state.dismiss);
  if (batch.length === 0 && undone === null) return null;

  return (
    <div className="undo-bar" role="status" data-testid="undo-bar">
      {batch.length > 0 ? (
        <>
          <span className="undo-summary" data-testid="undo-summary">
            {by === 'assistant' ? `The assistant: ${summary}` : summary}
          </span>
          <button
            type="button"
            className="small"
            data-testid="undo-button"
            disabled={undoing}
            onClick={() => void undo()}
          >
            {undoing ? 'Undoing…' : 'Undo'}
          </button>
        </>
      ) : (
        <span className="undo-summary" data-testid="undo-done">{`Undone: ${undone}`}</span>
      )}
      <button type="button" className="ghost small" aria-label="Dismiss" onClick={dismiss}>
        ×
      </button>
    </div>
  );
}
