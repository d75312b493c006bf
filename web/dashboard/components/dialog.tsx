/**
 * A modal dialog: the native <dialog> opened with showModal(), so focus stays
 * inside, Escape closes it and the page behind is inert; named by its heading
 * (role=dialog, aria-labelledby).
 */
import type { ComponentChildren } from 'preact';
import { useEffect, useId, useRef } from 'preact/hooks';

interface DialogProps {
  title: string;
  onClose: () => void;
  children: ComponentChildren;
}

export function Dialog({ title, onClose, children }: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
    return () => dialog?.close();
  }, []);
  return (
    <dialog ref={ref} role="dialog" aria-labelledby={titleId} class="dialog" onClose={onClose}>
      <h2 id={titleId}>{title}</h2>
      {children}
    </dialog>
  );
}

/** Fechar, at a dialog's foot. */
export function CloseButton({ onClose, label }: { onClose: () => void; label: string }) {
  return (
    <button type="button" class="secondary" onClick={onClose}>
      {label}
    </button>
  );
}
