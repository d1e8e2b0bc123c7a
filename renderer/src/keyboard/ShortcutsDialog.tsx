import { Modal } from '../app/Modal.tsx';
import { useShortcutHelpStore } from '../stores/shortcut-help-store.ts';
import '../styles/shortcuts.css';
import { keyCaps, shortcutSections } from './shortcut-table.ts';

// `?`: every keyboard shortcut, read from the one table the handler uses (shortcut-table.ts), so the list
// cannot tell of a key that does nothing. Esc or Close closes it, and the focus goes back to where it was
// (Modal.tsx).
export function ShortcutsDialog() {
  const close = useShortcutHelpStore((state) => state.close);
  return (
    <Modal label="Keyboard shortcuts" testId="shortcuts-dialog" onEscape={close} className="shortcuts-dialog">
      <div className="dialog-title">
        <h2>Keyboard shortcuts</h2>
        <button type="button" className="ghost" data-testid="shortcuts-close" onClick={close}>
          Close
        </button>
      </div>
      <p className="muted">
        They work outside text fields and the composer. With conversations selected (x), e, #, s and u act on
        all of them.
      </p>
      <div className="shortcut-sections">
        {shortcutSections().map((section) => (
          <section key={section.title} className="shortcut-section">
            <h3>{section.title}</h3>
            <dl>
              {section.rows.map((row) => (
                <div key={`${row.key} ${row.does}`} className="shortcut-row" data-testid="shortcut-row">
                  <dt>
                    {/* A row's caps differ from each other: `g i`, Shift I. */}
                    {keyCaps(row.key).map((cap) => (
                      <kbd key={cap}>{cap}</kbd>
                    ))}
                  </dt>
                  <dd>{row.does}</dd>
                </div>
              ))}
            </dl>
          </section>
        ))}
      </div>
    </Modal>
  );
}
