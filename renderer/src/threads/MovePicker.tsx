import { useEffect, useRef } from 'react';
import { Modal } from '../app/Modal.tsx';
import { displayText } from '../mail/display-text.ts';
import type { MovePlace } from '../stores/mail-moves-store.ts';
import { useMailStore } from '../stores/mail-store.ts';
import { usePickerStore } from '../stores/picker-store.ts';

// The places first, as Gmail's "Move to" lists them: each is the place on the conversation's own account (a local
// one for imported mail, made at its first use), so Archive is there before anything was ever archived.
const places: readonly { place: MovePlace; name: string }[] = [
  { place: 'inbox', name: 'Inbox' },
  { place: 'archive', name: 'Archive' },
  { place: 'spam', name: 'Spam' },
  { place: 'trash', name: 'Trash' },
];

// Move… (`v`): type to filter the places and folders; a click or Enter (the first one shown) moves there at once,
// undoably, as Archive does. The folders listed are the ordinary ones: a server's Inbox, Archive, Spam and Trash
// are the places above, and mail is not moved into Sent or Drafts.
export function MovePicker() {
  const open = usePickerStore((state) => state.open === 'move');
  const filter = usePickerStore((state) => state.filter);
  const applying = usePickerStore((state) => state.applying);
  const folders = useMailStore((state) => state.folders);
  // The place the list is (the Archive view, say) is not offered: the conversation is there already.
  const listed = useMailStore((state) =>
    state.hits === null && state.folderId === null ? state.view : null,
  );
  const picker = usePickerStore.getState();
  const input = useRef<HTMLInputElement>(null);

  useEffect(() => {
    if (open) input.current?.focus();
  }, [open]);

  if (!open) return null;
  const matches = (name: string, typed: string) =>
    typed.trim() === '' || name.toLowerCase().includes(typed.trim().toLowerCase());
  const matching = (typed: string) => ({
    places: places.filter((p) => p.place !== listed && matches(p.name, typed)),
    folders: folders.filter((f) => f.place === null && matches(f.name, typed)),
  });
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
          const now = matching(event.currentTarget.value);
          const place = now.places[0];
          const folder = now.folders[0];
          if (place) void picker.pickPlace(place.place);
          else if (folder) void picker.pickFolder(folder.id);
        }}
      />
      <ul className="picker-list">
        {shown.places.map(({ place, name }) => (
          <MoveOption key={place} place onPick={() => void picker.pickPlace(place)} disabled={applying}>
            {name}
          </MoveOption>
        ))}
        {shown.folders.map((folder) => (
          <MoveOption key={folder.id} onPick={() => void picker.pickFolder(folder.id)} disabled={applying}>
            {displayText(folder.name)}
          </MoveOption>
        ))}
        {shown.places.length + shown.folders.length === 0 && <li className="muted">No folder matches.</li>}
      </ul>
      <div className="dialog-actions">
        <button type="button" onClick={picker.close}>
          Cancel
        </button>
      </div>
    </Modal>
  );
}

// One line of the list: a place (above the line) or a folder.
function MoveOption(props: { place?: boolean; disabled: boolean; onPick: () => void; children: string }) {
  return (
    <li>
      <button
        type="button"
        className={props.place ? 'ghost picker-item picker-place' : 'ghost picker-item'}
        data-testid={props.place ? 'move-place' : 'move-option'}
        disabled={props.disabled}
        onClick={props.onPick}
      >
        {props.children}
      </button>
    </li>
  );
}
