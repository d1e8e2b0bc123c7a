import { type KeyboardEvent, useEffect, useRef, useState } from 'react';

// One of the bar's buttons that may fold into the More menu. `fold` is the level at which it leaves the bar
// (layout-narrow.css): 1 first, 3 last.
export type BarItem = {
  id: string;
  label: string;
  fold: 1 | 2 | 3;
  onSelect(): void;
  pressed?: boolean;
  title?: string;
};

// The bar's buttons that do not fit a narrow window, as a menu: Enter/Space/↓ open it, ↑/↓ move, Esc closes
// it and gives the focus back to More. The menu lists every foldable item; CSS shows only those folded at the
// window's width, so the bar and the menu never disagree.
// The menu's items that show at this width (the rest are folded back into the bar by CSS).
function shown(menu: HTMLElement | null): HTMLButtonElement[] {
  return [...(menu?.querySelectorAll<HTMLButtonElement>('[role="menuitem"]') ?? [])].filter(
    (el) => el.offsetParent !== null,
  );
}

export function TopBarMore({ items }: { items: BarItem[] }) {
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!open) return;
    shown(menu.current)[0]?.focus();
    const onDown = (event: MouseEvent) => {
      const target = event.target as Node;
      if (!menu.current?.contains(target) && !button.current?.contains(target)) setOpen(false);
    };
    document.addEventListener('mousedown', onDown);
    return () => document.removeEventListener('mousedown', onDown);
  }, [open]);

  const close = () => {
    setOpen(false);
    button.current?.focus();
  };

  const onMenuKey = (event: KeyboardEvent) => {
    const list = shown(menu.current);
    const at = list.indexOf(document.activeElement as HTMLButtonElement);
    if (event.key === 'Escape') close();
    else if (event.key === 'ArrowDown') list[(at + 1) % list.length]?.focus();
    else if (event.key === 'ArrowUp') list[(at - 1 + list.length) % list.length]?.focus();
    else if (event.key === 'Home') list[0]?.focus();
    else if (event.key === 'End') list[list.length - 1]?.focus();
    else if (event.key !== 'Tab') return;
    if (event.key === 'Tab') {
      setOpen(false);
      return;
    }
    // The app's own shortcuts (Esc clears a search) must not see the menu's keys.
    event.preventDefault();
    event.stopPropagation();
  };

  return (
    <div className="top-more">
      <button
        ref={button}
        type="button"
        className="ghost"
        data-testid="top-more"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls="top-more-menu"
        onClick={() => setOpen((was) => !was)}
        onKeyDown={(event) => {
          if (event.key === 'ArrowDown' && !open) {
            setOpen(true);
            event.preventDefault();
          }
        }}
      >
        More ▾
      </button>
      {open && (
        <div
          ref={menu}
          id="top-more-menu"
          className="top-more-menu"
          role="menu"
          aria-label="More"
          data-testid="top-more-menu"
          onKeyDown={onMenuKey}
        >
          {items.map((item) => (
            <button
              key={item.id}
              type="button"
              role="menuitem"
              tabIndex={-1}
              className={`fold fold-${item.fold}`}
              data-testid={`more-${item.id}`}
              title={item.title}
              onClick={() => {
                setOpen(false);
                item.onSelect();
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
