import { useMailStore } from '../stores/mail-store.ts';
import { useOrderedListStore } from '../stores/ordered-list-store.ts';
import { useTriageStore } from '../stores/triage-store.ts';
import { filterKey, filtersOf, isOrdered, sortable } from './triage-order.ts';

// Sort and filter the list by the chosen set's answers: over every conversation of the folder or view (the
// main process orders them), and the note says how many of them have answers.
export function TriageOrderBar() {
  const set = useTriageStore((state) => state.sets.find((s) => s.id === state.answersSetId));
  const order = useTriageStore((state) => state.order);
  const answers = useTriageStore((state) => state.answers);
  const setSort = useTriageStore((state) => state.setSort);
  const setFilter = useTriageStore((state) => state.setFilter);
  const total = useOrderedListStore((state) => state.total);
  const inFolder = useMailStore((state) => state.folderId !== null);
  if (!set || answers.size === 0) return null;

  const filters = filtersOf(set.questions);
  const chosen = filterKey(order.filter);
  return (
    <div className="triage-order" data-testid="triage-order">
      <label>
        <span>Sort</span>
        <select
          data-testid="triage-sort"
          value={order.sortBy ?? ''}
          onChange={(event) => setSort(event.target.value === '' ? null : event.target.value)}
        >
          <option value="">Newest first</option>
          {sortable(set.questions).map((q) => (
            <option key={q.name} value={q.name}>
              {q.type === 'predicate' ? `${q.name} (most likely first)` : `${q.name} (highest first)`}
            </option>
          ))}
        </select>
      </label>
      <label>
        <span>Show</span>
        <select
          data-testid="triage-filter"
          value={chosen}
          onChange={(event) => setFilter(filters.find((f) => f.key === event.target.value)?.filter ?? null)}
        >
          <option value="">All</option>
          {filters.map(({ key, label }) => (
            <option key={key} value={key}>
              {label}
            </option>
          ))}
        </select>
      </label>
      {isOrdered(order) && total !== null && (
        <span className="muted" data-testid="triage-order-note">
          From every conversation in this {inFolder ? 'folder' : 'view'}: {total.toLocaleString('en-US')} with
          answers for {set.name}.
        </span>
      )}
    </div>
  );
}
