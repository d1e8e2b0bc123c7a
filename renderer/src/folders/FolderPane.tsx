import type { MailView } from '../../../shared/contract/index.ts';
import { inView } from '../../../shared/mail-views.ts';
import { displayText } from '../mail/display-text.ts';
import { useImportStore } from '../stores/import-store.ts';
import { useMailStore } from '../stores/mail-store.ts';

const views: { view: MailView; name: string }[] = [
  { view: 'inbox', name: 'Inbox' },
  { view: 'all', name: 'All mail' },
];

export function FolderPane() {
  const folders = useMailStore((state) => state.folders);
  const folderId = useMailStore((state) => state.folderId);
  const current = useMailStore((state) => state.view);
  const selectFolder = useMailStore((state) => state.selectFolder);
  const selectView = useMailStore((state) => state.selectView);
  const openImport = useImportStore((state) => state.openDialog);

  return (
    <nav className="folder-pane" aria-label="Folders">
      <button type="button" className="import-button" data-testid="import-open" onClick={openImport}>
        Import…
      </button>
      <ul className="folder-list">
        {views.map(({ view, name }) => {
          const unread = folders.reduce((sum, f) => sum + (inView(view, f.place) ? f.unread : 0), 0);
          return (
            <li key={view}>
              <button
                type="button"
                className="folder"
                data-testid={`view-${view}`}
                aria-current={folderId === null && current === view}
                onClick={() => selectView(view)}
              >
                <span className="folder-name">{name}</span>
                {unread > 0 && <span className="folder-unread">{unread}</span>}
              </button>
            </li>
          );
        })}
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
