import { Modal } from '../app/Modal.tsx';
import { useAppStore } from '../stores/app-store.ts';
import { isImportBusy, useImportStore } from '../stores/import-store.ts';
import { ImportProgressView } from './ImportProgressView.tsx';
import { ImportSummaryView } from './ImportSummaryView.tsx';

export function ImportDialog() {
  const open = useImportStore((state) => state.open);
  const status = useImportStore((state) => state.status);
  const pathsText = useImportStore((state) => state.pathsText);
  const error = useImportStore((state) => state.error);
  const setPathsText = useImportStore((state) => state.setPathsText);
  const importPaths = useImportStore((state) => state.importPaths);
  const importDemo = useImportStore((state) => state.importDemo);
  const cancel = useImportStore((state) => state.cancel);
  const close = useImportStore((state) => state.closeDialog);
  const demoAvailable = useAppStore((state) => state.info?.demoAvailable ?? false);
  if (!open) return null;

  const busy = isImportBusy(status);
  // Esc stops a running import (DESIGN §12) and otherwise closes the dialog.
  const onEscape = () => (busy ? void cancel() : close());

  return (
    <Modal label="Import mail" testId="import-dialog" onEscape={onEscape}>
      <h2>Import mail</h2>
      {!busy && status !== 'done' && (
        <>
          <label className="field">
            <span>Paths on this computer, one per line: .eml files, .mbox files, Maildir folders</span>
            <textarea
              data-testid="import-paths"
              rows={5}
              spellCheck={false}
              placeholder={'/home/me/mail/archive.mbox\n/home/me/Maildir'}
              value={pathsText}
              onChange={(event) => setPathsText(event.target.value)}
            />
          </label>
          {error && (
            <p className="warning" role="alert" data-testid="import-error">
              {error}
            </p>
          )}
          <div className="dialog-actions">
            <button type="button" onClick={close}>
              Close
            </button>
            {demoAvailable && (
              <button type="button" data-testid="import-demo" onClick={() => void importDemo()}>
                Demo mailbox
              </button>
            )}
            <button
              type="button"
              className="primary"
              data-testid="import-start"
              onClick={() => void importPaths()}
            >
              Import
            </button>
          </div>
        </>
      )}
      {busy && (
        <>
          <ImportProgressView />
          <div className="dialog-actions">
            <button type="button" data-testid="import-cancel" onClick={() => void cancel()}>
              {status === 'cancelling' ? 'Stopping…' : 'Cancel'}
            </button>
          </div>
        </>
      )}
      {status === 'done' && (
        <>
          <ImportSummaryView />
          <div className="dialog-actions">
            <button type="button" className="primary" data-testid="import-close" onClick={close}>
              Done
            </button>
          </div>
        </>
      )}
    </Modal>
  );
}
