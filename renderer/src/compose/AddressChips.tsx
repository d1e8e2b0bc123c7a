import { type ClipboardEvent, type KeyboardEvent, useState } from 'react';
import { displayText } from '../mail/display-text.ts';
import { useComposeStore } from '../stores/compose-store.ts';
import { entriesProblem, isAddress, readEntries } from './address-entry.ts';
import type { AddressField } from './compose-form.ts';

const labels: Record<AddressField, string> = { to: 'To', cc: 'Cc', bcc: 'Bcc' };

// To, Cc or Bcc as chips (DESIGN §12, "The composer"): a comma, semicolon, Enter or Tab turns what is typed into
// a chip, a paste of several addresses into several, Backspace in the empty box takes the last one back. While
// typing, people from the mailbox (mail:contacts) are offered: arrows choose, Enter or Tab take one. A chip
// that is not an address stays, marked, with the sentence below. Names and addresses come from mail: text only.
export function AddressChips({ field }: { field: AddressField }) {
  const chips = useComposeStore((state) => state.form?.[field] ?? []);
  const completion = useComposeStore((state) =>
    state.completion?.field === field ? state.completion : null,
  );
  const addAddresses = useComposeStore((state) => state.addAddresses);
  const removeAddress = useComposeStore((state) => state.removeAddress);
  const complete = useComposeStore((state) => state.complete);
  const moveCompletion = useComposeStore((state) => state.moveCompletion);
  const acceptCompletion = useComposeStore((state) => state.acceptCompletion);
  const endCompletion = useComposeStore((state) => state.endCompletion);
  const [text, setText] = useState('');
  const problem = entriesProblem(chips);
  const listId = `composer-${field}-options`;

  function commit(value: string): void {
    addAddresses(field, readEntries(value));
    setText('');
    endCompletion();
  }

  function change(value: string): void {
    // A separator typed (or pasted) ends the entries before it; what follows it is still being typed.
    const last = Math.max(value.lastIndexOf(','), value.lastIndexOf(';'));
    if (last !== -1) {
      addAddresses(field, readEntries(value.slice(0, last)));
      value = value.slice(last + 1).trimStart();
    }
    setText(value);
    void complete(field, value);
  }

  function keyDown(event: KeyboardEvent<HTMLInputElement>): void {
    const plain = !event.ctrlKey && !event.metaKey && !event.altKey;
    if (completion && plain && (event.key === 'ArrowDown' || event.key === 'ArrowUp')) {
      event.preventDefault();
      moveCompletion(event.key === 'ArrowDown' ? 1 : -1);
    } else if (completion && event.key === 'Escape') {
      // The suggestions close; the composer stays.
      event.preventDefault();
      event.stopPropagation();
      endCompletion();
    } else if ((event.key === 'Enter' || event.key === 'Tab') && plain && !event.shiftKey) {
      if (completion && acceptCompletion()) {
        setText('');
        event.preventDefault();
      } else if (text.trim() !== '') {
        commit(text);
        event.preventDefault();
      } else if (event.key === 'Enter') event.preventDefault();
    } else if (event.key === 'Enter') {
      // Ctrl/Cmd+Enter sends (the panel's key): what is typed counts.
      commit(text);
    } else if (event.key === 'Backspace' && text === '' && chips.length > 0) {
      event.preventDefault();
      removeAddress(field, chips.length - 1);
    }
  }

  // An <input> turns the line ends of a pasted list into nothing, gluing the addresses together.
  function paste(event: ClipboardEvent<HTMLInputElement>): void {
    const pasted = event.clipboardData.getData('text');
    if (!/[,;\n]/.test(pasted)) return;
    event.preventDefault();
    commit(text + pasted);
  }

  return (
    <div className="compose-row address-row">
      <label className="compose-label" htmlFor={`composer-${field}-input`}>
        {labels[field]}
      </label>
      <div className="address-box" data-testid={`composer-${field}`}>
        <ul className="address-chips" aria-label={`${labels[field]} recipients`}>
          {chips.map((chip, index) => {
            const valid = isAddress(chip);
            return (
              <li
                key={chip}
                className={valid ? 'address-chip' : 'address-chip invalid'}
                data-testid="address-chip"
                data-valid={valid}
                title={valid ? chip : 'Not an email address'}
              >
                <span className="address-chip-text">{displayText(chip)}</span>
                <button
                  type="button"
                  className="address-chip-remove"
                  aria-label={`Remove ${displayText(chip)}`}
                  onClick={() => removeAddress(field, index)}
                >
                  ×
                </button>
              </li>
            );
          })}
        </ul>
        <input
          id={`composer-${field}-input`}
          data-testid={`composer-${field}-input`}
          className="address-input"
          role="combobox"
          aria-autocomplete="list"
          aria-expanded={completion !== null}
          aria-controls={listId}
          aria-activedescendant={completion ? `${listId}-${completion.at}` : undefined}
          aria-invalid={problem !== null}
          autoComplete="off"
          value={text}
          onChange={(event) => change(event.target.value)}
          onKeyDown={keyDown}
          onPaste={paste}
          onBlur={() => commit(text)}
        />
        {completion && (
          <div className="completion" id={listId} role="listbox" data-testid="completion">
            {completion.items.map((item, index) => (
              // The mouse picks without taking the focus from the box first (which would end the typing); the keys
              // are the box's (arrows, Enter, Tab), so an option needs no focus of its own.
              <div
                key={item.address}
                id={`${listId}-${index}`}
                role="option"
                tabIndex={-1}
                aria-selected={index === completion.at}
                data-testid="completion-option"
                onMouseDown={(event) => {
                  event.preventDefault();
                  if (index !== completion.at) moveCompletion(index - completion.at);
                  if (acceptCompletion()) setText('');
                }}
              >
                {item.name && <span className="completion-name">{displayText(item.name)}</span>}
                <span className="completion-address">{displayText(item.address)}</span>
              </div>
            ))}
          </div>
        )}
      </div>
      {problem && (
        <p className="warning compose-problem" data-testid={`composer-${field}-problem`}>
          {problem}
        </p>
      )}
    </div>
  );
}
