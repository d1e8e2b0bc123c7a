import { useEffect, useRef, useState } from 'react';
import '../styles/row-menu.css';

export type RowMenuItem = { label: string; testId: string; danger?: boolean; run(): void };

// A ⋯ button and its menu, for a folder or a label in the folder list (issue 29 §4, §7): Enter or a click opens
// it, the first item takes the focus, Esc or a click elsewhere closes it, and choosing an item closes it first.
export function RowMenu({ name, items, testId }: { name: string; items: RowMenuItem[]; testId: string }) {
  const [open, setOpen] = useState(false);
  const box = useRef<HTMLDivElement>(null);
  const first = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!open) return;
    first.current?.focus();
    const away = (e: MouseEvent) => {
      if (!box.current?.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('mousedown', away);
    return () => document.removeEventListener('mousedown', away);
  }, [open]);

  return (
    <div className="row-menu" ref={box}>
      <button
        type="button"
        className="row-menu-button"
        data-testid={testId}
        aria-label={`More for ${name}`}
        aria-haspopup="menu"
        aria-expanded={open}
        onClick={() => setOpen(!open)}
      >
        ⋯
      </button>
      {open && (
        <div
          className="row-menu-items"
          role="menu"
          aria-label={name}
          tabIndex={-1}
          onKeyDown={(e) => {
            if (e.key !== 'Escape') return;
            e.stopPropagation();
            setOpen(false);
          }}
        >
          {items.map((item, i) => (
            <button
              key={item.testId}
              ref={i === 0 ? first : undefined}
              type="button"
              role="menuitem"
              className={item.danger ? 'danger' : undefined}
              data-testid={item.testId}
              onClick={() => {
                setOpen(false);
                item.run();
              }}
            >
              {item.label}
            </button>
          ))}
        </div>
      )}
    </div>
  );
}
