import { useMailStore } from '../stores/mail-store.ts';

// Closes the conversation and puts the list back (and the keyboard on it), in the narrow layout only.
export function backToList(): void {
  useMailStore.getState().closeThread();
  // The list comes back in the same render; its scroller takes the focus so j/k go on from the same row.
  requestAnimationFrame(() => {
    document
      .querySelector<HTMLElement>('.thread-pane [tabindex="0"], .thread-pane [role="listbox"]')
      ?.focus();
  });
}

export function BackToList() {
  return (
    <div className="back-bar">
      <button
        type="button"
        className="ghost back-to-list"
        data-testid="back-to-list"
        title="Back to the list (Esc or u)"
        onClick={backToList}
      >
        ← Back
      </button>
    </div>
  );
}
