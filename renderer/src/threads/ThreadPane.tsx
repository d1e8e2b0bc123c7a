import { useMailStore } from '../stores/mail-store.ts';
import { UndoBar } from '../undo/UndoBar.tsx';
import { SearchBox } from './SearchBox.tsx';
import { SearchResults } from './SearchResults.tsx';
import { ThreadList } from './ThreadList.tsx';

export function ThreadPane() {
  const searching = useMailStore((state) => state.hits !== null);
  return (
    <section className="thread-pane" aria-label="Conversations">
      <UndoBar />
      <SearchBox />
      {searching ? <SearchResults /> : <ThreadList />}
    </section>
  );
}
