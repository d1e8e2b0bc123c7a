import { Modal } from '../app/Modal.tsx';
import { usePermissionsStore } from '../stores/permissions-store.ts';
import { ActivityList } from './ActivityList.tsx';
import { GrantList } from './GrantList.tsx';

// Permissions and activity (DESIGN §7): what the assistant may do without asking, each revocable, and every
// tool call it made with who decided it. Opening it asks Skimmer alone.
export function PermissionsDialog() {
  const open = usePermissionsStore((state) => state.open);
  const close = usePermissionsStore((state) => state.closeDialog);
  if (!open) return null;

  return (
    <Modal label="Permissions" testId="permissions-dialog" onEscape={close} className="permissions-dialog">
      <div className="dialog-title">
        <h2>Permissions</h2>
        <button type="button" className="ghost" data-testid="permissions-close" onClick={close}>
          Close
        </button>
      </div>
      <p className="muted">
        With mail tools on, the assistant searches and reads mail without asking. Anything that changes mail
        asks first unless you allowed that tool below; sending and deleting always ask.
      </p>
      <GrantList />
      <ActivityList />
    </Modal>
  );
}
