import { Modal } from '../app/Modal.tsx';
import { ChooseButtons } from '../files/ChooseButtons.tsx';
import { FileBrowser } from '../files/FileBrowser.tsx';
import { useAppStore } from '../stores/app-store.ts';
import { useFilePickStore } from '../stores/file-pick-store.ts';
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
  const chooseAndImport = useImportStore((state) => state.chooseAndImport);
  const browsing = useFilePickStore((state) => state.browsing === 'mail');
  const cancelBrowsing = useFilePickStore((state) => state.cancel);
  const cancel = useImportStore((state) => state.cancel);
  const close = useImportStore((state) => state.closeDialog);
  const demoAvailable = useAppStore((state) => state.info?.demoAvailable ?? false);
  if (!open) return null;

  const busy = isImportBusy(status);
  // Esc stops a running import (DESIGN §12), else leaves the file browser, else closes the dialog.
  const onEscape = () => (busy ? void cancel() : browsing ? cancelBrowsing() : close());

  return (
    <Modal label="Import mail" testId="import-dialog" onEscape={onEscape} className="import-dialog">
      <h2>Import mail</h2>
      {!busy && status !== 'done' && browsing && <FileBrowser purpose="mail" what="files and folders" />}
      {!busy && status !== 'done' && !browsing && (
        <div className="path-chooser">
          <p className="muted">
            .mbox and .eml files, Maildir folders, or a folder that holds them: a Thunderbird profile's Mail
            folder too, whose mailboxes are files without an extension (Inbox, Sent).
          </p>
          <ChooseButtons
            purpose="mail"
            testId="import-choose"
            onChoose={(kind) => void chooseAndImport(kind)}
          />
          <details className="type-a-path">
            <summary data-testid="import-type-path">Type a path</summary>
            <label className="field">
              <span>Paths on this computer, one per line</span>
              <textarea
                data-testid="import-paths"
                rows={4}
                spellCheck={false}
                placeholder={'/home/me/mail/archive.mbox\n/home/me/Maildir'}
                value={pathsText}
                onChange={(event) => setPathsText(event.target.value)}
              />
            </label>
            <div className="dialog-actions">
              <button type="button" data-testid="import-start" onClick={() => void importPaths()}>
                Import typed paths
              </button>
            </div>
          </details>
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
          </div>
        </div>
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
