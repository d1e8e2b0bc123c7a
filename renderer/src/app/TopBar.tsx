import { AgentRequests } from '../approvals/AgentRequests.tsx';
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
      <button type="button" className="ghost drafts-open" data-testid="drafts-open" onClick={openDrafts}>
        {drafts > 0 ? `Drafts (${drafts})` : 'Drafts'}
      </button>
      <button type="button" className="ghost" data-testid="documents-open" onClick={openDocuments}>
        Documents
      </button>
      <button type="button" className="ghost" data-testid="triage-open" onClick={openTriage}>
        Triage
      </button>
      <button type="button" className="ghost" data-testid="accounts-open" onClick={openAccounts}>
        Accounts
      </button>
      <button type="button" className="ghost" data-testid="identities-open" onClick={openIdentities}>
        Your addresses
      </button>
      <button type="button" className="ghost" data-testid="services-open" onClick={openServices}>
        Services
      </button>
      <button type="button" className="ghost" data-testid="permissions-open" onClick={openPermissions}>
        Permissions
      </button>
      {/* Off until turned on here; the browser asks its permission at this click, never before. */}
      <button
        type="button"
        className="ghost"
        data-testid="notify-toggle"
        aria-pressed={notifying}
        title="A notification when new mail arrives (never for an account's first sync)"
        onClick={() => void toggleNotify()}
      >
        {notifying ? 'Notify: on' : 'Notify: off'}
      </button>
      <button
        type="button"
        className="ghost"
        data-testid="theme-toggle"
        aria-pressed={theme === 'dark'}
        onClick={toggleTheme}
      >
        {theme === 'dark' ? 'Light theme' : 'Dark theme'}
      </button>
    </header>
  );
}
