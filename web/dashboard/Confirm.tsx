import { useEffect, useRef } from 'preact/hooks';
import type { DashboardMessages } from './locales';

/** A modal confirmation (the native dialog: focus moves into it, Escape cancels, the page behind is inert). */
export function Confirm({ t, question, onConfirm, onCancel }: { t: DashboardMessages; question: string; onConfirm(): void; onCancel(): void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    dialog.current?.showModal();
  }, []);
  return (
    <dialog ref={dialog} aria-labelledby="confirm-question" onCancel={onCancel}>
      <p id="confirm-question">{question}</p>
      <div class="dialog-buttons">
        <button type="button" class="secondary" onClick={onCancel}>
          {t.payment.cancel}
        </button>
        <button type="button" onClick={onConfirm} autofocus>
          {t.payment.confirm}
        </button>
      </div>
    </dialog>
  );
}
