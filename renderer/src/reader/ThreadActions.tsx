import { useMailMovesStore } from '../stores/mail-moves-store.ts';
import { useMailStarStore } from '../stores/mail-star-store.ts';
import { useMailStore } from '../stores/mail-store.ts';
import { usePickerStore } from '../stores/picker-store.ts';
import { spamActionFor } from '../stores/thread-selection.ts';

// Star, Archive, Trash, Spam, Label and Move for the open conversation (also `s`, `e`, `#`, `!`, `l` and `v`);
// Undo follows in the bar above the list.
export function ThreadActions({ threadId }: { threadId: number }) {
  const moving = useMailMovesStore((state) => state.moving);
  const move = useMailMovesStore((state) => state.move);
  const starring = useMailStarStore((state) => state.starring);
  const toggleStar = useMailStarStore((state) => state.toggleStar);
  const starred = useMailStore(
    (state) => state.openThread?.id === threadId && state.openThread.messages.some((m) => m.starred),
  );
  const spam = useMailStore((state) =>
    state.openThread?.id === threadId
      ? spamActionFor(
          state.folders,
          { folderId: state.folderId, view: state.view, searching: state.hits !== null },
          state.openThread.messages.map((m) => m.folderId),
        )
      : 'spam',
  );
  return (
    <div className="thread-actions">
      <button
        type="button"
        className={starred ? 'small star starred' : 'small star'}
        data-testid="thread-star"
        title={starred ? 'Unstar (s)' : 'Star (s)'}
        aria-pressed={starred}
        disabled={starring}
        onClick={() => void toggleStar(threadId)}
      >
        {starred ? '★ Starred' : '☆ Star'}
      </button>
      <button
        type="button"
        className="small"
        data-testid="thread-archive"
        title="Archive (e)"
        disabled={moving !== null}
        onClick={() => void move('archive', threadId)}
      >
        {moving === 'archive' ? 'Archiving…' : 'Archive'}
      </button>
      <button
        type="button"
        className="small"
        data-testid="thread-trash"
        title="Move to Trash (#)"
        disabled={moving !== null}
        onClick={() => void move('trash', threadId)}
      >
        {moving === 'trash' ? 'Moving…' : 'Trash'}
      </button>
      <button
        type="button"
        className="small"
        data-testid="thread-spam"
        title={spam === 'spam' ? 'Spam (!)' : 'Not spam (!)'}
        disabled={moving !== null}
        onClick={() => void move('spam', threadId)}
      >
        {spam === 'spam' ? 'Spam' : 'Not spam'}
      </button>
      <button
        type="button"
        className="small"
        data-testid="thread-label"
        title="Label (l)"
        onClick={() => void usePickerStore.getState().openLabels(threadId)}
      >
        Label…
      </button>
      <button
        type="button"
        className="small"
        data-testid="thread-move"
        title="Move to a folder (v)"
        disabled={moving !== null}
        onClick={() => usePickerStore.getState().openMove(threadId)}
      >
        Move…
      </button>
    </div>
  );
}
