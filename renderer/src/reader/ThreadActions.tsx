import { useMailMovesStore } from '../stores/mail-moves-store.ts';

// Archive and Trash for the open conversation (also `e` and `#`); Undo follows in the bar above the list.
export function ThreadActions({ threadId }: { threadId: number }) {
  const moving = useMailMovesStore((state) => state.moving);
  const move = useMailMovesStore((state) => state.move);
  return (
    <div className="thread-actions">
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
