import { useImportStore } from '../stores/import-store.ts';

// First start: nothing imported yet.
export function EmptyState({ showActions, demoAvailable }: { showActions: boolean; demoAvailable: boolean }) {
  const openDialog = useImportStore((state) => state.openDialog);
  const importDemo = useImportStore((state) => state.importDemo);

  return (
    <main className="empty-state">
      <h1>No mail yet</h1>
      <p>
        Skimmer keeps your mail on this computer. Import .eml files, .mbox files or Maildir folders
        {demoAvailable ? ', or look around in the demo mailbox first.' : '.'}
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
          <button type="button" data-testid="import-open" onClick={openDialog}>
            Import mail…
          </button>
        </div>
      )}
    </main>
  );
}
