import { useMailMovesStore } from '../stores/mail-moves-store.ts';
import { useMailStarStore } from '../stores/mail-star-store.ts';
import { useMailStore } from '../stores/mail-store.ts';

// Star, Archive and Trash for the open conversation (also `s`, `e` and `#`); Undo follows in the bar above the list.
export function ThreadActions({ threadId }: { threadId: number }) {
  const moving = useMailMovesStore((state) => state.moving);
  const move = useMailMovesStore((state) => state.move);
  const starring = useMailStarStore((state) => state.starring);
  const toggleStar = useMailStarStore((state) => state.toggleStar);
  const starred = useMailStore(
    (state) => state.openThread?.id === threadId && state.openThread.messages.some((m) => m.starred),
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
    </div>
  );
}
