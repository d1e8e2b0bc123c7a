import { useEffect, useRef } from 'react';
import { Modal } from '../app/Modal.tsx';
import { displayText } from '../mail/display-text.ts';
import { checkOf, filtered } from '../stores/label-picks.ts';
import { usePickerStore } from '../stores/picker-store.ts';

// Label… (`l`): type to filter, a checkbox per label showing whether all, some or none of what is picked has
// it, "Create label “NAME”" for a name that is not there yet; Apply (or Enter) makes it one undoable change.
export function LabelPicker() {
  const open = usePickerStore((state) => state.open === 'label');
  const labels = usePickerStore((state) => state.labels);
  const threads = usePickerStore((state) => state.threads);
  const wanted = usePickerStore((state) => state.wanted);
  const filter = usePickerStore((state) => state.filter);
  const error = usePickerStore((state) => state.error);
  const applying = usePickerStore((state) => state.applying);
  const picker = usePickerStore.getState();
  const input = useRef<HTMLInputElement>(null);

  useEffect(() => {
    if (open) input.current?.focus();
  }, [open]);

  if (!open) return null;
  const { shown, canCreate } = filtered(labels ?? [], filter);
  const typed = filter.trim();
  const changed = wanted.size > 0;

  return (
    <Modal label="Label" testId="label-picker" onEscape={picker.close} className="picker">
      <h2>Label {threads > 1 ? `${threads.toLocaleString()} conversations` : 'this conversation'}</h2>
      <input
        ref={input}
        type="text"
        placeholder="Find or create a label"
        aria-label="Find or create a label"
        data-testid="label-filter"
        value={filter}
        maxLength={64}
        onChange={(event) => picker.setFilter(event.target.value)}
        onKeyDown={(event) => {
          if (event.key !== 'Enter') return;
          event.preventDefault();
          if (changed || !canCreate) void picker.applyLabels();
          else void picker.applyLabels(typed);
        }}
      />
      {labels === null && <p className="muted">Loading…</p>}
      {error && <p className="warning">{error}</p>}
      <ul className="picker-list">
        {shown.map((label) => {
          const check = checkOf(label, threads, wanted);
          return (
            <li key={label.name}>
              <label className="picker-item" data-testid="label-option" data-check={check}>
                <input
                  type="checkbox"
                  checked={check === 'all'}
                  ref={(el) => {
                    if (el) el.indeterminate = check === 'some';
                  }}
                  onChange={() => picker.toggleLabel(label.name)}
                />
                {displayText(label.name)}
              </label>
            </li>
          );
        })}
        {canCreate && (
          <li>
            <button
              type="button"
              className="ghost picker-create"
              data-testid="label-create"
              disabled={applying}
              onClick={() => void picker.applyLabels(typed)}
            >
              {`Create label “${typed}”`}
            </button>
          </li>
        )}
      </ul>
      <div className="dialog-actions">
        <button type="button" onClick={picker.close}>
          Cancel
        </button>
        <button
          type="button"
          className="primary"
          data-testid="label-apply"
          disabled={!changed || applying}
          onClick={() => void picker.applyLabels()}
        >
          Apply
        </button>
      </div>
    </Modal>
  );
}
