import type { ReactNode } from 'react';
import { Modal } from '../app/Modal.tsx';

type SavedListDialogProps<T> = {
  title: string;
  // Names the dialog's test ids: `${testId}-dialog`, `-close`, `-error` and `-empty`.
  testId: string;
  intro: ReactNode;
  items: readonly T[];
  row(item: T): ReactNode;
  listLabel: string;
  loading: boolean;
  loadingText: string;
  listError: string | null;
  emptyText: string;
  onEscape(): void;
  onClose(): void;
  // The "Add" form, below the list.
  children: ReactNode;
};

// A settings dialog of things the user saved (Mail accounts, Model services, Your addresses): what it is for, the saved list
// or why there is none, and the form that adds one.
export function SavedListDialog<T>(props: SavedListDialogProps<T>) {
  const { title, testId, items, loading, listError } = props;
  return (
    <Modal label={title} testId={`${testId}-dialog`} onEscape={props.onEscape} className="saved-list-dialog">
      <div className="dialog-title">
        <h2>{title}</h2>
        <button type="button" className="ghost" data-testid={`${testId}-close`} onClick={props.onClose}>
          Close
        </button>
      </div>
      <p className="muted">{props.intro}</p>
      {listError && (
        <p className="warning" role="alert" data-testid={`${testId}-error`}>
          {listError}
        </p>
      )}
      {loading && items.length === 0 && <p className="muted">{props.loadingText}</p>}
      {items.length > 0 ? (
        <ul className="saved-list" aria-label={props.listLabel}>
          {items.map(props.row)}
        </ul>
      ) : (
        !loading &&
        !listError && (
          <p className="saved-list-empty" data-testid={`${testId}-empty`}>
            {props.emptyText}
          </p>
        )
      )}
      {props.children}
    </Modal>
  );
}
