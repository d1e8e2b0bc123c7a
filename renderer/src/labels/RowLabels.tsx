// The chips of a list row's labels, in the colours picked (issue 29 §4).
import { useEffect } from 'react';
import { useRowLabelsStore } from './row-labels-store.ts';
import '../styles/labels.css';

export function RowLabels({ threadId }: { threadId: number }) {
  const labels = useRowLabelsStore((state) => state.byThread.get(threadId));
  const want = useRowLabelsStore((state) => state.want);
  useEffect(() => {
    if (labels === undefined) want(threadId);
  }, [labels, threadId, want]);
  if (!labels || labels.length === 0) return null;
  return (
    <span className="row-labels" data-testid="row-labels">
      {labels.map((l) => (
        <span key={l.name} className="label-chip" data-colour={l.colour ?? 'none'} data-testid="label-chip">
          {l.name}
        </span>
      ))}
    </span>
  );
}
