import { useEffect, useRef } from 'react';
import type { BulkAction } from '../../../shared/contract/index.ts';
import { useMailBulkStore } from '../stores/mail-bulk-store.ts';
import { useMailStore } from '../stores/mail-store.ts';
import { usePickerStore } from '../stores/picker-store.ts';
import { useSelectionStore } from '../stores/selection-store.ts';
import {
  chosenCount,
  headerCheck,
  listIsSpam,
  listIsTrash,
  offersAllInView,
} from '../stores/thread-selection.ts';

const plural = (n: number) => `${n.toLocaleString()} conversation${n === 1 ? '' : 's'}`;

// The list's header (DESIGN §12, "Several at once"): a checkbox for the loaded rows, and while anything is
// selected the count, the toolbar, and the offer to take every conversation of the view, not just those loaded.
export function SelectionBar() {
  const pages = useMailStore((state) => state.pages);
  const total = useMailStore((state) => state.total);
  const spamList = useMailStore((state) => listIsSpam(state.folders, state.folderId, state.view));
  const trashList = useMailStore((state) => listIsTrash(state.folders, state.folderId, state.view));
  const emptyTrash = useMailBulkStore((state) => state.emptyTrash);
  const working = useMailBulkStore((state) => state.working);
  const ids = useSelectionStore((state) => state.ids);
  const allInView = useSelectionStore((state) => state.allInView);
  const toggleLoaded = useSelectionStore((state) => state.toggleLoaded);
  const selectAllInView = useSelectionStore((state) => state.selectAllInView);
  const clear = useSelectionStore((state) => state.clear);
  const chosen = { ids, allInView };
  const check = headerCheck(chosen, pages);
  const count = chosenCount(chosen, total);
  const box = useRef<HTMLInputElement>(null);

  useEffect(() => {
    if (box.current) box.current.indeterminate = check === 'some';
  }, [check]);

  if (!total) return null;

  return (
    <div className="selection-bar" data-testid="selection-bar">
      <div className="selection-row">
        <input
          ref={box}
          type="checkbox"
          aria-label={check === 'all' ? 'Select none' : 'Select the loaded conversations'}
          data-testid="select-loaded"
          checked={check === 'all'}
          onChange={toggleLoaded}
        />
        {count > 0 ? (
          <>
            <span className="selection-count" data-testid="selection-count">
              {`${count.toLocaleString()} selected`}
            </span>
            <SelectionToolbar spam={spamList ? 'notSpam' : 'spam'} trash={trashList} count={count} />
          </>
        ) : (
          <span className="muted">Select</span>
        )}
        {trashList && (
          <button
            type="button"
            className="small danger empty-trash"
            data-testid="empty-trash"
            disabled={working !== null}
            onClick={() => void emptyTrash(total)}
          >
            Empty Trash
          </button>
        )}
      </div>
      {offersAllInView(chosen, pages, total) && (
        <button
          type="button"
          className="link-button"
          data-testid="select-all-in-view"
          onClick={selectAllInView}
        >
          {`Select all ${plural(total)} in this view`}
        </button>
      )}
      {allInView && (
        <span className="muted" data-testid="all-in-view-selected">
          {`All ${plural(total)} in this view are selected. `}
          <button type="button" className="link-button" onClick={clear}>
            Clear selection
          </button>
        </span>
      )}
    </div>
  );
}

// The actions on a selection, the list's and the search results' alike (SearchSelectionBar.tsx): each
// one batch (mail-bulk-store.ts), Label… and Move… through their pickers.
export function SelectionToolbar({
  spam,
  trash = false,
  count = 0,
}: {
  spam: 'spam' | 'notSpam';
  // In Trash: Restore and Delete forever… (asked first, with the count) instead of Archive and Trash.
  trash?: boolean;
  count?: number;
}) {
  const working = useMailBulkStore((state) => state.working);
  const act = useMailBulkStore((state) => state.act);
  const deleteForever = useMailBulkStore((state) => state.deleteForever);
  const button = (label: string, action: BulkAction, testId: string) => (
    <button
      type="button"
      className="small"
      data-testid={testId}
      disabled={working !== null}
      onClick={() => void act(action)}
    >
      {label}
    </button>
  );
  return (
    <div className="selection-actions" role="toolbar" aria-label="Act on the selection">
      {trash ? (
        <>
          {button('Restore', { kind: 'restore' }, 'bulk-restore')}
          <button
            type="button"
            className="small danger"
            data-testid="bulk-delete-forever"
            disabled={working !== null}
            onClick={() => void deleteForever(count)}
          >
            Delete forever…
          </button>
        </>
      ) : (
        <>
          {button('Archive', { kind: 'archive' }, 'bulk-archive')}
          {button('Trash', { kind: 'trash' }, 'bulk-trash')}
        </>
      )}
      {button('Mark read', { kind: 'read', read: true }, 'bulk-read')}
      {button('Mark unread', { kind: 'read', read: false }, 'bulk-unread')}
      {button('Star', { kind: 'star', starred: true }, 'bulk-star')}
      {button('Unstar', { kind: 'star', starred: false }, 'bulk-unstar')}
      <button
        type="button"
        className="small"
        data-testid="bulk-label"
        onClick={() => void usePickerStore.getState().openLabels()}
      >
        Label…
      </button>
      <button
        type="button"
        className="small"
        data-testid="bulk-move"
        onClick={() => usePickerStore.getState().openMove()}
      >
        Move…
      </button>
      {spam === 'notSpam'
        ? button('Not spam', { kind: 'notSpam' }, 'bulk-not-spam')
        : button('Spam', { kind: 'spam' }, 'bulk-spam')}
    </div>
  );
}
