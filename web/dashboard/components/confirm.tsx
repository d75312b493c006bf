/** A confirmation dialog for an action that cannot be undone (revoke a key, delete a webhook, cancel a link, remove a member). */
import { useI18n } from '../i18n.js';
import { Dialog } from './dialog.js';
import { ErrorBox } from './feedback.js';
import { useAction } from './load.js';

interface ConfirmProps {
  title: string;
  text: string;
  /** The confirming button's name. */
  confirm: string;
  /** The other button's name: Cancelar unless told. */
  cancel?: string;
  action: () => Promise<unknown>;
  /** true when the action was done, false when the dialog was left. */
  onClose: (done: boolean) => void;
}

export function Confirm({ title, text, confirm, cancel, action, onClose }: ConfirmProps) {
  const { t } = useI18n();
  const run = useAction();
  const go = async () => {
    if (await run.run(() => action().then(() => true))) onClose(true);
  };
  return (
    <Dialog title={title} onClose={() => onClose(false)}>
      {text && <p>{text}</p>}
      <ErrorBox error={run.error} />
      <div class="buttons">
        <button type="button" class="danger" disabled={run.busy} onClick={() => void go()}>
          {confirm}
        </button>
        <button type="button" class="secondary" onClick={() => onClose(false)}>
          {cancel ?? t('cancel')}
        </button>
      </div>
    </Dialog>
  );
}
