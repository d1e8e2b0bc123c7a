import { DraftsView } from '../drafts/DraftsView.tsx';
import { useMailStore } from '../stores/mail-store.ts';
import { useTriageStore } from '../stores/triage-store.ts';
import { OrderedThreadList } from '../triage/OrderedThreadList.tsx';
import { TriageOrderBar } from '../triage/TriageOrderBar.tsx';
import { isOrdered } from '../triage/triage-order.ts';
import { UndoBar } from '../undo/UndoBar.tsx';
import { SearchBox } from './SearchBox.tsx';
import { SearchResults } from './SearchResults.tsx';
import { SelectionBar } from './SelectionBar.tsx';
import { ThreadList } from './ThreadList.tsx';

export function ThreadPane() {
  const searching = useMailStore((state) => state.hits !== null);
  const ordered = useTriageStore((state) => isOrdered(state.order));
  // The Drafts view lists the local drafts, not conversations.
  const drafts = useMailStore((state) => state.folderId === null && state.view === 'drafts');
  return (
    <section className="thread-pane" aria-label="Conversations">
      <UndoBar />
      <SearchBox />
      {!searching && !drafts && <TriageOrderBar />}
      {!searching && !drafts && !ordered && <SelectionBar />}
      {searching ? (
        <SearchResults />
      ) : drafts ? (
        <DraftsView />
      ) : ordered ? (
        <OrderedThreadList />
      ) : (
        <ThreadList />
      )}
    </section>
  );
}
