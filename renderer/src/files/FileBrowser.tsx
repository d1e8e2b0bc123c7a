import { type KeyboardEvent, useEffect, useRef } from 'react';
import type { BrowseEntry, EntryLooks, PickPurpose } from '../../../shared/contract/index.ts';
import { formatBytes } from '../format/format-size.ts';
import { displayText } from '../mail/display-text.ts';
import { choosable, maxChosenPaths, useFilePickStore } from '../stores/file-pick-store.ts';
import '../styles/files.css';

const looksLabel: Record<EntryLooks, string> = {
  mbox: 'mbox',
  eml: 'message',
  maildir: 'Maildir',
  document: 'document',
};

// How many rows PageUp/PageDown move.
const pageRows = 10;

type Props = { purpose: PickPurpose; what: string };

// Skimmer's own browser of the user's folders (browser mode has no system dialog): the places, the path as
// breadcrumbs, Up, a filter, the folder's entries with a checkbox each (ticks are kept across folders), and Import
// with what is ticked. Keyboard: arrows move, Enter opens a folder (or ticks a file), Space ticks, Backspace goes up.
export function FileBrowser({ purpose, what }: Props) {
  const listing = useFilePickStore((state) => state.listing);
  const loading = useFilePickStore((state) => state.loading);
  const error = useFilePickStore((state) => state.error);
  const filter = useFilePickStore((state) => state.filter);
  const hidden = useFilePickStore((state) => state.hidden);
  const marked = useFilePickStore((state) => state.marked);
  const cursor = useFilePickStore((state) => state.cursor);
  const picker = useFilePickStore.getState();
  const list = useRef<HTMLDivElement>(null);
  const filterBox = useRef<HTMLInputElement>(null);

  useEffect(() => {
    filterBox.current?.focus();
  }, []);

  // The row under the cursor stays in view as the arrows move it.
  useEffect(() => {
    list.current?.querySelector(`[data-index="${cursor}"]`)?.scrollIntoView({ block: 'nearest' });
  }, [cursor]);

  const entries = listing?.entries ?? [];
  const chosen = Object.values(marked);
  const openFolder = (path: string) => {
    void picker.open(path).then(() => list.current?.focus());
  };

  const goUp = () => {
    if (listing?.up) openFolder(listing.up);
  };

  const onListKey = (event: KeyboardEvent) => {
    const entry = entries[cursor];
    let run: (() => void) | null = null;
    switch (event.key) {
      case 'ArrowDown':
        run = () => picker.setCursor(cursor + 1);
        break;
      case 'ArrowUp':
        run = () => (event.altKey ? goUp() : picker.setCursor(cursor - 1));
        break;
      case 'PageDown':
        run = () => picker.setCursor(cursor + pageRows);
        break;
      case 'PageUp':
        run = () => picker.setCursor(cursor - pageRows);
        break;
      case 'Home':
        run = () => picker.setCursor(0);
        break;
      case 'End':
        run = () => picker.setCursor(entries.length - 1);
        break;
      case 'Enter':
        run = () => entry && (entry.kind === 'folder' ? openFolder(entry.path) : picker.toggle(entry));
        break;
      case ' ':
        run = () => entry && picker.toggle(entry);
        break;
      case 'Backspace':
        run = goUp;
        break;
    }
    if (!run) return;
    event.preventDefault();
    run();
  };

  return (
    <section className="file-browser" aria-label={`Choose ${what}`} data-testid="file-browser">
      <nav className="browse-places" aria-label="Places">
        {listing?.places.map((place) => (
          <button
            key={place.path}
            type="button"
            className={listing.crumbs[0]?.path === place.path ? 'ghost current' : 'ghost'}
            data-testid="browse-place"
            onClick={() => openFolder(place.path)}
          >
            {displayText(place.name)}
          </button>
        ))}
      </nav>
      <div className="browse-path">
        <button
          type="button"
          data-testid="browse-up"
          disabled={!listing?.up}
          onClick={goUp}
          title="The folder above (Backspace)"
        >
          Up
        </button>
        <ol className="browse-crumbs" aria-label="Folder">
          {listing?.crumbs.map((crumb, i) => (
            <li key={crumb.path}>
              <button
                type="button"
                className="ghost"
                data-testid="browse-crumb"
                aria-current={i === listing.crumbs.length - 1 ? 'location' : undefined}
                onClick={() => openFolder(crumb.path)}
              >
                {displayText(crumb.name)}
              </button>
            </li>
          ))}
        </ol>
      </div>
      <div className="browse-tools">
        <input
          ref={filterBox}
          type="search"
          placeholder="Find in this folder"
          aria-label="Find in this folder"
          data-testid="browse-filter"
          maxLength={200}
          value={filter}
          onChange={(event) => picker.setFilter(event.target.value)}
          onKeyDown={(event) => {
            if (event.key !== 'ArrowDown' && event.key !== 'Enter') return;
            event.preventDefault();
            list.current?.focus();
          }}
        />
        <label className="browse-hidden">
          <input
            type="checkbox"
            data-testid="browse-hidden"
            checked={hidden}
            onChange={(event) => picker.setHidden(event.target.checked)}
          />
          Hidden folders
        </label>
      </div>
      {error && (
        <p className="warning" role="alert" data-testid="browse-error">
          {error}
        </p>
      )}
      <div
        ref={list}
        className="browse-list"
        role="listbox"
        aria-label="Entries"
        aria-multiselectable="true"
        aria-busy={loading}
        aria-activedescendant={entries[cursor] ? `browse-row-${cursor}` : undefined}
        tabIndex={0}
        data-testid="browse-list"
        onKeyDown={onListKey}
      >
        {entries.map((entry, i) => (
          <EntryRow
            key={entry.path}
            entry={entry}
            index={i}
            atCursor={i === cursor}
            checked={Boolean(marked[entry.path])}
            canChoose={choosable(entry, purpose)}
            onOpen={() => openFolder(entry.path)}
          />
        ))}
        {listing && entries.length === 0 && (
          <p className="muted browse-empty" data-testid="browse-empty">
            {emptySentence(filter.trim() !== '', listing.hidden)}
          </p>
        )}
      </div>
      {listing && (listing.matched > entries.length || listing.scanCut) && (
        <p className="muted" data-testid="browse-note">
          {listing.scanCut
            ? `This folder holds more entries than Skimmer reads at once; showing ${entries.length.toLocaleString()} of the first ${listing.matched.toLocaleString()}. Type in "Find in this folder" to narrow it.`
            : `Showing ${entries.length.toLocaleString()} of ${listing.matched.toLocaleString()}, folders first. Type in "Find in this folder" to find the others.`}
        </p>
      )}
      <ChosenList chosen={chosen} what={what} />
      <div className="dialog-actions">
        <button type="button" data-testid="browse-cancel" onClick={picker.cancel}>
          Back
        </button>
        <button
          type="button"
          className="primary"
          data-testid="browse-confirm"
          disabled={chosen.length === 0 || chosen.length > maxChosenPaths}
          onClick={picker.confirm}
        >
          {chosen.length > 0 ? `Import ${chosen.length}` : 'Import'}
        </button>
      </div>
    </section>
  );
}

function emptySentence(filtered: boolean, hidden: number): string {
  if (filtered) return 'Nothing here matches.';
  if (hidden > 0) {
    return `Nothing here but ${hidden.toLocaleString()} hidden ${hidden === 1 ? 'entry' : 'entries'}: tick “Hidden folders” to see them.`;
  }
  return 'This folder is empty.';
}

function EntryRow(props: {
  entry: BrowseEntry;
  index: number;
  atCursor: boolean;
  checked: boolean;
  canChoose: boolean;
  onOpen(): void;
}) {
  const { entry, index, atCursor, checked, canChoose, onOpen } = props;
  const picker = useFilePickStore.getState();
  const name = displayText(entry.name);
  return (
    // The listbox holds the focus and takes the keys for every row (aria-activedescendant).
    // biome-ignore lint/a11y/useFocusableInteractive: see above
    // biome-ignore lint/a11y/useKeyWithClickEvents: see above
    <div
      id={`browse-row-${index}`}
      role="option"
      aria-selected={checked}
      className={atCursor ? 'browse-row cursor' : 'browse-row'}
      data-index={index}
      data-testid="browse-entry"
      data-name={entry.name}
      data-kind={entry.kind}
      data-looks={entry.looks ?? ''}
      onClick={() => picker.setCursor(index)}
      onDoubleClick={() => (entry.kind === 'folder' ? onOpen() : picker.toggle(entry))}
    >
      <input
        type="checkbox"
        tabIndex={-1}
        aria-label={`Choose ${name}`}
        data-testid="browse-check"
        checked={checked}
        disabled={!canChoose}
        onChange={() => picker.toggle(entry)}
      />
      <span className={`browse-kind ${entry.kind}`} aria-hidden="true" />
      {entry.kind === 'folder' ? (
        <button
          type="button"
          className="link browse-name"
          tabIndex={-1}
          data-testid="browse-open"
          onClick={onOpen}
        >
          {name}
        </button>
      ) : (
        <span className="browse-name">{name}</span>
      )}
      {entry.looks && <span className={`browse-looks ${entry.looks}`}>{looksLabel[entry.looks]}</span>}
      <span className="browse-size">{entry.size === null ? '' : formatBytes(entry.size)}</span>
    </div>
  );
}

function ChosenList({ chosen, what }: { chosen: BrowseEntry[]; what: string }) {
  const picker = useFilePickStore.getState();
  if (chosen.length === 0) return <p className="muted browse-chosen-none">{`Tick the ${what} to import.`}</p>;
  return (
    <ul className="browse-chosen" aria-label="Chosen" data-testid="browse-chosen">
      {chosen.map((entry) => (
        <li key={entry.path} title={displayText(entry.path)}>
          {displayText(entry.name)}
          <button
            type="button"
            className="ghost"
            aria-label={`Remove ${displayText(entry.name)}`}
            onClick={() => picker.toggle(entry)}
          >
            ×
          </button>
        </li>
      ))}
      {chosen.length > maxChosenPaths && (
        <li className="warning">{`At most ${maxChosenPaths} at a time.`}</li>
      )}
    </ul>
  );
}
