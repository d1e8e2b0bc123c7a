import type { Folder, MailView } from '../../../shared/contract/index.ts';
import { inView } from '../../../shared/mail-views.ts';
import { syncProgressText } from '../../../shared/sync-progress-text.ts';
import { LabelsSection } from '../labels/LabelsSection.tsx';
import { useAccountsStore } from '../stores/accounts-store.ts';
import { useComposeStore } from '../stores/compose-store.ts';
import { useDraftsStore } from '../stores/drafts-store.ts';
import { useFolderGroupsStore } from '../stores/folder-groups-store.ts';
import { useImportStore } from '../stores/import-store.ts';
import { useMailStore } from '../stores/mail-store.ts';
import { createFolder, deleteFolder, renameFolder } from './folder-admin.ts';
import { type FolderGroup, groupFolders } from './folder-groups.ts';
import { RowMenu } from './RowMenu.tsx';
import { SignInAgainLine } from './SignInAgainLine.tsx';

// The views across every account and import, Gmail's order (issue 16); the accounts' and imports' own folders
// follow in groups. Inbox counts its unread, Drafts the local drafts.
const views: { view: MailView; name: string }[] = [
  { view: 'inbox', name: 'Inbox' },
  { view: 'starred', name: 'Starred' },
  { view: 'drafts', name: 'Drafts' },
  { view: 'sent', name: 'Sent' },
  { view: 'archive', name: 'Archive' },
  { view: 'spam', name: 'Spam' },
  { view: 'trash', name: 'Trash' },
  { view: 'all', name: 'All mail' },
];

function viewCount(view: MailView, folders: readonly Folder[], drafts: number): number {
  if (view === 'drafts') return drafts;
  if (view !== 'inbox') return 0;
  return folders.reduce((sum, f) => sum + (inView(view, f.place) ? f.unread : 0), 0);
}

export function FolderPane() {
  const folders = useMailStore((state) => state.folders);
  const folderId = useMailStore((state) => state.folderId);
  const current = useMailStore((state) => state.view);
  const selectView = useMailStore((state) => state.selectView);
  const drafts = useDraftsStore((state) => state.drafts.length);
  const openImport = useImportStore((state) => state.openDialog);
  const compose = useComposeStore((state) => state.compose);

  return (
    <nav className="folder-pane" aria-label="Folders">
      {/* Gmail's Compose, and `c` from anywhere in the mail view. */}
      <button
        type="button"
        className="primary import-button"
        data-testid="compose-open"
        onClick={() => void compose()}
      >
        Compose
      </button>
      <button type="button" className="import-button" data-testid="import-open" onClick={openImport}>
        Import…
      </button>
      <ul className="folder-list" aria-label="Views">
        {views.map(({ view, name }) => {
          const count = viewCount(view, folders, drafts);
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
                {count > 0 && (
                  <span
                    className="folder-unread"
                    title={view === 'drafts' ? `${count} drafts` : `${count} unread`}
                  >
                    {count}
                  </span>
                )}
              </button>
            </li>
          );
        })}
      </ul>
      {groupFolders(folders).map((group) => (
        <FolderGroupList key={group.key} group={group} />
      ))}
      <LabelsSection />
    </nav>
  );
}

function FolderGroupList({ group }: { group: FolderGroup }) {
  const folderId = useMailStore((state) => state.folderId);
  const selectFolder = useMailStore((state) => state.selectFolder);
  const collapsed = useFolderGroupsStore((state) => state.collapsed.has(group.key));
  const toggle = useFolderGroupsStore((state) => state.toggle);
  const listId = `folder-group-${group.key}`;
  // New folders go to the account's server, or stay on this computer for imported mail.
  const accountId = group.kind === 'account' ? (group.entries[0]?.folder.account?.id ?? null) : null;

  return (
    <section className="folder-group" data-testid="folders-group" data-group-kind={group.kind}>
      <div className="folder-group-head">
        <button
          type="button"
          className="folder-group-title"
          data-testid="folders-group-toggle"
          aria-expanded={!collapsed}
          aria-controls={listId}
          onClick={() => toggle(group.key)}
        >
          <span className="folder-group-arrow" aria-hidden="true">
            {collapsed ? '▸' : '▾'}
          </span>
          <span className="folder-group-name">{group.title}</span>
        </button>
        <RowMenu
          name={group.title}
          testId="folders-group-menu"
          items={[
            {
              label: 'New folder…',
              testId: 'folder-create',
              run: () =>
                void createFolder(accountId, group.kind === 'account' ? group.title : 'On this computer'),
            },
          ]}
        />
      </div>
      {group.kind === 'account' && <SyncLine accountId={group.entries[0]?.folder.account?.id ?? null} />}
      {group.kind === 'account' && (
        <SignInAgainLine accountId={group.entries[0]?.folder.account?.id ?? null} />
      )}
      {!collapsed && (
        <ul className="folder-list" id={listId} aria-label={group.title}>
          {group.entries.map(({ folder, label }) => (
            <li key={folder.id} className="folder-row">
              <button
                type="button"
                className="folder"
                data-testid={`folder-${folder.id}`}
                aria-current={folderId === folder.id}
                title={folder.source}
                onClick={() => selectFolder(folder.id)}
              >
                <span className="folder-name">{label}</span>
                {folder.unread > 0 && (
                  <span className="folder-unread" title={`${folder.unread} unread`}>
                    {folder.unread}
                  </span>
                )}
                <span className="folder-total" title={`${folder.total} messages`}>
                  {folder.total}
                </span>
              </button>
              {/* Special folders (Inbox, Sent, Trash…) keep their names and places. */}
              {folder.place === null && (
                <RowMenu
                  name={label}
                  testId="folder-menu"
                  items={[
                    {
                      label: 'Rename…',
                      testId: 'folder-rename',
                      run: () => void renameFolder(folder, label),
                    },
                    {
                      label: 'Delete…',
                      testId: 'folder-delete',
                      danger: true,
                      run: () => void deleteFolder(folder, label),
                    },
                  ]}
                />
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

// While an account's sync downloads a folder: "Syncing Inbox: 1,200 of 20,000 — about 2 min left" under its
// name, from the background sync's status (the same sentence `skimmer account sync` prints). A folder with
// nothing to download says nothing, so a round that only looks shows no line.
function SyncLine({ accountId }: { accountId: number | null }) {
  const progress = useAccountsStore((state) => {
    const status = accountId === null ? undefined : state.live[accountId]?.status;
    return status?.state === 'syncing' ? status.progress : null;
  });
  if (!progress || progress.total === 0) return null;
  return (
    <p className="folder-sync" role="status" data-testid="folder-sync">
      {syncProgressText(progress)}
    </p>
  );
}
