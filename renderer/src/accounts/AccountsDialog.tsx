import { Modal } from '../app/Modal.tsx';
import { useAccountsStore } from '../stores/accounts-store.ts';
import { AccountRow } from './AccountRow.tsx';
import { AddAccountForm } from './AddAccountForm.tsx';

// The "Mail accounts" screen (issue 5). Opening it asks Skimmer for the saved accounts and nothing else.
export function AccountsDialog() {
  const open = useAccountsStore((state) => state.open);
  const accounts = useAccountsStore((state) => state.accounts);
  const loading = useAccountsStore((state) => state.loading);
  const listError = useAccountsStore((state) => state.listError);
  const onEscape = useAccountsStore((state) => state.escape);
  const close = useAccountsStore((state) => state.closeDialog);
  if (!open) return null;

  return (
    <Modal label="Mail accounts" testId="accounts-dialog" onEscape={onEscape} className="accounts-dialog">
      <div className="dialog-title">
        <h2>Mail accounts</h2>
        <button type="button" className="ghost" data-testid="accounts-close" onClick={close}>
          Close
        </button>
      </div>
      <p className="muted">
        Skimmer keeps a copy of each account’s mail on this computer and keeps it in sync while it runs:
        archiving or deleting here does the same on the server.
      </p>
      {listError && (
        <p className="warning" role="alert" data-testid="accounts-error">
          {listError}
        </p>
      )}
      {loading && accounts.length === 0 && <p className="muted">Loading the saved accounts…</p>}
      {accounts.length > 0 ? (
        <ul className="account-list" aria-label="Saved accounts">
          {accounts.map((account) => (
            <AccountRow key={account.id} account={account} />
          ))}
        </ul>
      ) : (
        !loading &&
        !listError && (
          <p className="account-list-empty" data-testid="accounts-empty">
            No accounts yet. Add one below: pick your provider, or type your server’s settings.
          </p>
        )
      )}
      <AddAccountForm />
    </Modal>
  );
}
