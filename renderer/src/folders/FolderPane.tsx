import { displayText } from '../mail/display-text.ts';
import { useImportStore } from '../stores/import-store.ts';
import { useMailStore } from '../stores/mail-store.ts';

export function FolderPane() {
  const folders = useMailStore((state) => state.folders);
  const folderId = useMailStore((state) => state.folderId);
  const selectFolder = useMailStore((state) => state.selectFolder);
  const openImport = useImportStore((state) => state.openDialog);
  const unreadTotal = folders.reduce((sum, folder) => sum + folder.unread, 0);

  return (
    <nav className="folder-pane" aria-label="Folders">
      <button type="button" className="import-button" data-testid="import-open" onClick={openImport}>
        Import…
      </button>
      <ul className="folder-list">
        <li>
          <button
            type="button"
            className="folder"
            data-testid="folder-all"
            aria-current={folderId === null}
            onClick={() => selectFolder(null)}
          >
            <span className="folder-name">All mail</span>
            {unreadTotal > 0 && <span className="folder-unread">{unreadTotal}</span>}
          </button>
        </li>
        {folders.map((folder) => (
          <li key={folder.id}>
            <button
              type="button"
              className="folder"
              data-testid={`folder-${folder.id}`}
              aria-current={folderId === folder.id}
              title={folder.source}
              onClick={() => selectFolder(folder.id)}
            >
              <span className="folder-name">{displayText(folder.name)}</span>
              {folder.unread > 0 && (
                <span className="folder-unread" title={`${folder.unread} unread`}>
                  {folder.unread}
                </span>
              )}
              <span className="folder-total" title={`${folder.total} messages`}>
                {folder.total}
              </span>
            </button>
          </li>
        ))}
      </ul>
    </nav>
  );
}
