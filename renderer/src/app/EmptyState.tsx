import { useAccountsStore } from '../stores/accounts-store.ts';
import { useImportStore } from '../stores/import-store.ts';

// First start: no mail yet, from an account or an import.
export function EmptyState({ showActions, demoAvailable }: { showActions: boolean; demoAvailable: boolean }) {
  const openDialog = useImportStore((state) => state.openDialog);
  const importDemo = useImportStore((state) => state.importDemo);
  const openAccounts = useAccountsStore((state) => state.openDialog);

  return (
    <main className="empty-state">
      <h1>No mail yet</h1>
      <p>
        Skimmer keeps your mail on this computer. Add a mail account, or import .eml files, .mbox files or
        Maildir folders{demoAvailable ? ', or look around in the demo mailbox first.' : '.'}
      </p>
      {showActions && (
        <div className="empty-actions">
          {demoAvailable && (
            <button
              type="button"
              className="primary"
              data-testid="import-demo"
              onClick={() => void importDemo()}
            >
              Open the demo mailbox
            </button>
          )}
          <button type="button" data-testid="empty-add-account" onClick={openAccounts}>
            Add a mail account…
          </button>
          <button type="button" data-testid="import-open" onClick={openDialog}>
            Import mail…
          </button>
        </div>
      )}
    </main>
  );
}
