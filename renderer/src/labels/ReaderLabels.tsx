// The open conversation's labels in the reader's header (issue 29 §4), each with a × that takes it off the
// conversation as one undoable batch (mail:bulk, offered in the Undo bar like every action).
import { useEffect } from 'react';
import { runBatch } from '../stores/mail-bulk-store.ts';
import { useRowLabelsStore } from './row-labels-store.ts';
import '../styles/labels.css';

export function ReaderLabels({ threadId }: { threadId: number }) {
  const labels = useRowLabelsStore((state) => state.byThread.get(threadId));
  const want = useRowLabelsStore((state) => state.want);
  useEffect(() => {
    if (labels === undefined) want(threadId);
  }, [labels, threadId, want]);
  if (!labels || labels.length === 0) return null;
  const remove = (name: string) =>
    void runBatch(
      { scope: { view: 'all' }, threads: [threadId] },
      { kind: 'label', add: [], remove: [name] },
      () => {},
    );
  return (
    <ul className="reader-labels" aria-label="Labels" data-testid="reader-labels">
      {labels.map((l) => (
        <li key={l.name} className="label-chip" data-colour={l.colour ?? 'none'} data-testid="reader-label">
          <span>{l.name}</span>
          <button
            type="button"
            className="label-chip-remove"
            aria-label={`Remove label ${l.name}`}
            onClick={() => remove(l.name)}
          >
            ×
          </button>
        </li>
      ))}
    </ul>
  );
}
