import { SavedListDialog } from '../settings/SavedListDialog.tsx';
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
    <SavedListDialog
      title="Mail accounts"
      testId="accounts"
      intro="Skimmer keeps a copy of each account’s mail on this computer and keeps it in sync while it runs: archiving or deleting here does the same on the server."
      items={accounts}
      row={(account) => <AccountRow key={account.id} account={account} />}
      listLabel="Saved accounts"
      loading={loading}
      loadingText="Loading the saved accounts…"
      listError={listError}
      emptyText="No accounts yet. Add one below: type your email address, and Skimmer finds the rest."
      onEscape={onEscape}
      onClose={close}
    >
      <AddAccountForm />
    </SavedListDialog>
  );
}
