// The folder list's Labels section (issue 29 §4): each label with its unread and total messages as folders show
// them; a click shows that label's view (the search `label:NAME`), and the swatch button picks its colour from
// the palette. Its ⋯ menu renames or deletes it (asked first, with Undo, on the server too). Read again
// whenever the folders are (an action, a sync, an undo changes both).
import { useEffect, useState } from 'react';
import { labelColours } from '../../../shared/contract/limits.ts';
import { RowMenu } from '../folders/RowMenu.tsx';
import { useMailStore } from '../stores/mail-store.ts';
import { labelQuery, useLabelsStore } from './labels-store.ts';
import '../styles/labels.css';

export function LabelsSection() {
  const labels = useLabelsStore((state) => state.labels);
  const error = useLabelsStore((state) => state.error);
  const load = useLabelsStore((state) => state.load);
  const setColour = useLabelsStore((state) => state.setColour);
  const rename = useLabelsStore((state) => state.rename);
  const remove = useLabelsStore((state) => state.remove);
  const folders = useMailStore((state) => state.folders);
  const query = useMailStore((state) => state.query);
  const hits = useMailStore((state) => state.hits);
  const setQuery = useMailStore((state) => state.setQuery);
  const runSearch = useMailStore((state) => state.runSearch);
  const [picking, setPicking] = useState<number | null>(null);

  // biome-ignore lint/correctness/useExhaustiveDependencies: the folders changing is the reason to read again
  useEffect(() => {
    void load();
  }, [load, folders]);

  if (labels.length === 0 && error === null) return null;
  const open = (name: string) => {
    setQuery(labelQuery(name));
    void runSearch();
  };

  return (
    <section className="folder-group labels-section" data-testid="labels-section" aria-label="Labels">
      <h2 className="folder-group-title labels-title">Labels</h2>
      {error !== null && (
        <p className="labels-error" role="alert">
          {error}
        </p>
      )}
      <ul className="folder-list" aria-label="Labels">
        {labels.map((label) => (
          <li key={label.id} className="label-item">
            <button
              type="button"
              className="folder"
              data-testid="label-view"
              data-label={label.name}
              aria-current={hits !== null && query === labelQuery(label.name)}
              onClick={() => open(label.name)}
            >
              <span className="label-dot" data-colour={label.colour ?? 'none'} aria-hidden="true" />
              <span className="folder-name">{label.name}</span>
              {label.unread > 0 && (
                <span className="folder-unread" title={`${label.unread} unread`}>
                  {label.unread}
                </span>
              )}
              <span className="folder-total" title={`${label.total} messages`}>
                {label.total}
              </span>
            </button>
            <button
              type="button"
              className="label-colour-button"
              data-testid="label-colour"
              aria-label={`Colour of ${label.name}`}
              aria-expanded={picking === label.id}
              onClick={() => setPicking(picking === label.id ? null : label.id)}
            >
              ●
            </button>
            <RowMenu
              name={label.name}
              testId="label-menu"
              items={[
                { label: 'Rename…', testId: 'label-rename', run: () => void rename(label) },
                { label: 'Colour', testId: 'label-menu-colour', run: () => setPicking(label.id) },
                { label: 'Delete…', testId: 'label-delete', danger: true, run: () => void remove(label) },
              ]}
            />
            {picking === label.id && (
              // biome-ignore lint/a11y/useSemanticElements: a row of swatch buttons, each saying its colour
              <div
                className="label-palette"
                role="group"
                aria-label={`Colours for ${label.name}`}
                onKeyDown={(e) => {
                  if (e.key === 'Escape') setPicking(null);
                }}
              >
                {[...labelColours, null].map((colour) => (
                  <button
                    key={colour ?? 'none'}
                    type="button"
                    className="label-swatch"
                    data-colour={colour ?? 'none'}
                    data-testid={`label-swatch-${colour ?? 'none'}`}
                    aria-label={colour ?? 'No colour'}
                    aria-pressed={label.colour === colour}
                    onClick={() => {
                      void setColour(label.id, colour);
                      setPicking(null);
                    }}
                  />
                ))}
              </div>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
