import type { ReactNode } from 'react';

// The question a saved row asks before it is removed, in place of the row's actions. While the removal runs
// both buttons wait; a refusal comes back as the row's error.
export function RemoveConfirm({
  name,
  testId,
  removing,
  onCancel,
  onRemove,
  children,
}: {
  name: string;
  testId: string;
  removing: boolean;
  onCancel(): void;
  onRemove(): void;
  // What goes with the row, in a sentence.
  children: ReactNode;
}) {
  return (
    <div className="remove-confirm" role="alertdialog" aria-label={`Remove ${name}?`}>
      <span>{children}</span>
      <button type="button" onClick={onCancel} disabled={removing}>
        Cancel
      </button>
      <button type="button" className="danger" data-testid={testId} disabled={removing} onClick={onRemove}>
        {removing ? 'Removing…' : 'Remove'}
      </button>
    </div>
  );
}
