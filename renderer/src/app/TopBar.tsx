import { AgentRequests } from '../approvals/AgentRequests.tsx';
import { type BarItem, TopBarMore } from '../layout/TopBarMore.tsx';
import { useAccountsStore } from '../stores/accounts-store.ts';
import { useAppStore } from '../stores/app-store.ts';
import { useChatStore } from '../stores/chat-store.ts';
import { useDocumentsStore } from '../stores/documents-store.ts';
import { useDraftsStore } from '../stores/drafts-store.ts';
import { useIdentitiesStore } from '../stores/identities-store.ts';
import { useNotifyStore } from '../stores/notify-store.ts';
import { usePermissionsStore } from '../stores/permissions-store.ts';
import { useServicesStore } from '../stores/services-store.ts';
import { useTriageStore } from '../stores/triage-store.ts';

const keyHints = {
  mail: 'j/k move · Enter open · e archive · # trash · / search · u read/unread · g i/s/d/t/a go to · c write · r/a/f reply',
  chat: 'Enter send · Shift+Enter new line · Esc stop',
} as const;

export function TopBar() {
  const theme = useAppStore((state) => state.theme);
  const info = useAppStore((state) => state.info);
  const infoError = useAppStore((state) => state.infoError);
  const toggleTheme = useAppStore((state) => state.toggleTheme);
  const view = useAppStore((state) => state.view);
  const showView = useAppStore((state) => state.showView);
  const answering = useChatStore((state) => state.live !== null);
  const openServices = useServicesStore((state) => state.openDialog);
  const openPermissions = usePermissionsStore((state) => state.openDialog);
  const openAccounts = useAccountsStore((state) => state.openDialog);
  const openTriage = useTriageStore((state) => state.openDialog);
  const openDrafts = useDraftsStore((state) => state.openDialog);
  const drafts = useDraftsStore((state) => state.drafts.length);
  const openDocuments = useDocumentsStore((state) => state.openDialog);
  const openIdentities = useIdentitiesStore((state) => state.openDialog);
  const notifying = useNotifyStore((state) => state.enabled);
  const toggleNotify = useNotifyStore((state) => state.toggle);

  // In the bar's order; `fold` says when an item leaves the bar for the More menu (layout-narrow.css).
  const items: BarItem[] = [
    { id: 'drafts-open', label: drafts > 0 ? `Drafts (${drafts})` : 'Drafts', fold: 3, onSelect: openDrafts },
    { id: 'documents-open', label: 'Documents', fold: 3, onSelect: openDocuments },
    { id: 'triage-open', label: 'Triage', fold: 3, onSelect: openTriage },
    { id: 'accounts-open', label: 'Accounts', fold: 2, onSelect: openAccounts },
    { id: 'identities-open', label: 'Your addresses', fold: 2, onSelect: openIdentities },
    { id: 'services-open', label: 'Services', fold: 1, onSelect: openServices },
    { id: 'permissions-open', label: 'Permissions', fold: 1, onSelect: openPermissions },
    // Off until turned on here; the browser asks its permission at this click, never before.
    {
      id: 'notify-toggle',
      label: notifying ? 'Notify: on' : 'Notify: off',
      fold: 2,
      pressed: notifying,
      title: "A notification when new mail arrives (never for an account's first sync)",
      onSelect: () => void toggleNotify(),
    },
    {
      id: 'theme-toggle',
      label: theme === 'dark' ? 'Light theme' : 'Dark theme',
      fold: 3,
      pressed: theme === 'dark',
      onSelect: toggleTheme,
    },
  ];

  return (
    <header className="top-bar">
      <span className="app-name">Skimmer</span>
      <fieldset className="view-switch" aria-label="View">
        <button
          type="button"
          data-testid="mail-open"
          aria-pressed={view === 'mail'}
          onClick={() => showView('mail')}
        >
          Mail
        </button>
        <button
          type="button"
          data-testid="chat-open"
          aria-pressed={view === 'chat'}
          onClick={() => showView('chat')}
        >
          {/* An answer goes on streaming while the mail shows; the switch says so. */}
          {answering && view !== 'chat' ? 'Chat · answering…' : 'Chat'}
        </button>
      </fieldset>
      {info && <span className="mode-badge">{info.mode === 'browser' ? 'Browser mode' : 'Desktop'}</span>}
      {infoError && (
        <span className="top-error" role="alert">
          {infoError}
        </span>
      )}
      <span className="spacer" />
      <span className="key-hint">{keyHints[view]}</span>
      <AgentRequests />
      {items.map((item) => (
        <button
          key={item.id}
          type="button"
          className={`ghost fold-${item.fold}${item.id === 'drafts-open' ? ' drafts-open' : ''}`}
          data-testid={item.id}
          aria-pressed={item.pressed}
          title={item.title}
          onClick={item.onSelect}
        >
          {item.label}
        </button>
      ))}
      <TopBarMore items={items} />
    </header>
  );
}
