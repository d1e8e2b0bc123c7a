import { type ReactNode, useEffect, useRef, useState } from 'react';

type ModalProps = {
  label: string;
  testId: string;
  onEscape(): void;
  children: ReactNode;
  // Extra classes, e.g. a wider dialog.
  className?: string;
};

// A native modal <dialog>: it traps focus and makes the rest of the page inert. Esc goes to `onEscape`;
// the dialog closes only when its owner stops rendering it, and the focus then goes back to where it was (a
// dialog removed from the page while open gives none back by itself, so it would fall to <body>).
export function Modal({ label, testId, onEscape, children, className }: ModalProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const leaving = useRef(false);
  // Read while rendering, before the effect below moves the focus into the dialog.
  const [before] = useState(() => document.activeElement);

  useEffect(() => {
    const dialog = ref.current;
    leaving.current = false;
    if (dialog && !dialog.open) dialog.showModal();
    return () => {
      leaving.current = true;
      dialog?.close();
      const lost = document.activeElement === null || document.activeElement === document.body;
      if (lost && before instanceof HTMLElement && before.isConnected) before.focus();
    };
  }, [before]);

  // Chromium may close a dialog on a repeated Esc despite preventDefault (close-watcher abuse rules); if the
  // owner still renders it after handling Esc, it is shown again.
  const onClose = () => {
    if (leaving.current) return;
    onEscape();
    setTimeout(() => {
      const dialog = ref.current;
      if (dialog?.isConnected && !dialog.open) dialog.showModal();
    });
  };

  return (
    <dialog
      ref={ref}
      className={className ? `modal ${className}` : 'modal'}
      aria-label={label}
      data-testid={testId}
      onCancel={(event) => {
        event.preventDefault();
        onEscape();
      }}
      onClose={onClose}
    >
      {children}
    </dialog>
  );
}
