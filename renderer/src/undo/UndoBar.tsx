import { useUndoStore } from '../stores/undo-store.ts';
import type { Hold } from '../undo/bar-timer.ts';

// "Archived 2 messages · Undo": what the assistant's last run, an outside agent's call, or the user's last
// Archive or Trash changed in the mail, and the way back. Shown in the chat pane and above the mail list, so
// the user can take it back from wherever they check the result. Changes the user did not make are named by who
// made them ("The assistant: …", "Claude Desktop: …"). It leaves after its window (undo-store.ts), which waits
// while the pointer or the focus is on it.
export function UndoBar() {
  const batch = useUndoStore((state) => state.batch);
  const shown = useUndoStore((state) => state.shown);
  const summary = useUndoStore((state) => state.summary);
  const by = useUndoStore((state) => state.by);
  const undoing = useUndoStore((state) => state.undoing);
  const undone = useUndoStore((state) => state.undone);
  const undo = useUndoStore((state) => state.undo);
  const dismiss = useUndoStore((state) => state.dismiss);
  const hold = useUndoStore((state) => state.hold);
  if (!shown || (batch.length === 0 && undone === null)) return null;
  const holding = (why: Hold, held: boolean) => () => hold(why, held);

  return (
    <div
      className="undo-bar"
      role="status"
      data-testid="undo-bar"
      onPointerEnter={holding('hover', true)}
      onPointerLeave={holding('hover', false)}
      onFocus={holding('focus', true)}
      onBlur={(event) => {
        // Focus moving between the bar's own buttons still holds it.
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) hold('focus', false);
      }}
    >
      {batch.length > 0 ? (
        <>
          <span className="undo-summary" data-testid="undo-summary">
            {/* SECURITY: an outside agent's name is its own words (bounded and cleaned in agent-watch.ts); React
                shows it as text. */}
            {by !== null && (
              <span className="undo-by" data-testid="undo-by">
                {by}
              </span>
            )}
            {by !== null ? `: ${summary}` : summary}
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
