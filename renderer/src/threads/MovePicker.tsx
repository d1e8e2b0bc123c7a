import { useEffect, useRef } from 'react';
import { Modal } from '../app/Modal.tsx';
import { displayText } from '../mail/display-text.ts';
import { useMailStore } from '../stores/mail-store.ts';
import { usePickerStore } from '../stores/picker-store.ts';

// Move… (`v`): type to filter the folders; a click or Enter (the first one shown) moves there at once,
// undoably, as Archive does.
export function MovePicker() {
  const open = usePickerStore((state) => state.open === 'move');
  const filter = usePickerStore((state) => state.filter);
  const applying = usePickerStore((state) => state.applying);
  const folders = useMailStore((state) => state.folders);
  const picker = usePickerStore.getState();
  const input = useRef<HTMLInputElement>(null);

  useEffect(() => {
    if (open) input.current?.focus();
  }, [open]);

  if (!open) return null;
  const matching = (typed: string) =>
    folders.filter((f) => typed === '' || f.name.toLowerCase().includes(typed.trim().toLowerCase()));
  const shown = matching(filter);

  return (
    <Modal label="Move to a folder" testId="move-picker" onEscape={picker.close} className="picker">
      <h2>Move to…</h2>
      <input
        ref={input}
        type="text"
        placeholder="Find a folder"
        aria-label="Find a folder"
        data-testid="move-filter"
        value={filter}
        onChange={(event) => picker.setFilter(event.target.value)}
        onKeyDown={(event) => {
          if (event.key !== 'Enter') return;
          event.preventDefault();
          // What the field holds now, not what was last drawn: Enter typed right after a letter picks the
          // folder that letter leaves first.
          const first = matching(event.currentTarget.value)[0];
          if (first) void picker.pickFolder(first.id);
        }}
      />
      <ul className="picker-list">
        {shown.map((folder) => (
          <li key={folder.id}>
            <button
              type="button"
              className="ghost picker-item"
              data-testid="move-option"
              disabled={applying}
              onClick={() => void picker.pickFolder(folder.id)}
            >
              {displayText(folder.name)}
            </button>
          </li>
        ))}
        {shown.length === 0 && <li className="muted">No folder matches.</li>}
      </ul>
      <div className="dialog-actions">
        <button type="button" onClick={picker.close}>
          Cancel
        </button>
      </div>
    </Modal>
  );
}
