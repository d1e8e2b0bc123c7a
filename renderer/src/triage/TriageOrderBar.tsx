import { useMailStore } from '../stores/mail-store.ts';
import { useTriageStore } from '../stores/triage-store.ts';
import { filtersOf, isOrdered, sortable } from './triage-order.ts';

// Sort and filter the list by the chosen set's answers. The list arrives in windows, so this works on the
// conversations already loaded that have answers, and says how many those are.
export function TriageOrderBar() {
  const set = useTriageStore((state) => state.sets.find((s) => s.id === state.answersSetId));
  const order = useTriageStore((state) => state.order);
  const answers = useTriageStore((state) => state.answers);
  const setSort = useTriageStore((state) => state.setSort);
  const setFilter = useTriageStore((state) => state.setFilter);
  const loaded = useMailStore((state) => [...state.pages.values()].reduce((n, rows) => n + rows.length, 0));
  if (!set || answers.size === 0) return null;

  const filters = filtersOf(set.questions);
  const filterKey = order.filter ? `${order.filter.question}\u0000${order.filter.value ?? ''}` : '';
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
          value={filterKey}
          onChange={(event) => {
            const chosen = filters.find(
              ({ filter }) => `${filter.question}\u0000${filter.value ?? ''}` === event.target.value,
            );
            setFilter(chosen?.filter ?? null);
          }}
        >
          <option value="">All</option>
          {filters.map(({ filter, label }) => (
            <option key={label} value={`${filter.question}\u0000${filter.value ?? ''}`}>
              {label}
            </option>
          ))}
        </select>
      </label>
      {isOrdered(order) && (
        <span className="muted" data-testid="triage-order-note">
          Of the {loaded.toLocaleString('en-US')} loaded conversations, those with answers for {set.name}{' '}
          only.
        </span>
      )}
    </div>
  );
}
