import { lazy, Suspense } from 'react';
import { useAccountsStore } from '../stores/accounts-store.ts';
import { useDocumentsStore } from '../stores/documents-store.ts';
import { useDraftsStore } from '../stores/drafts-store.ts';
import { useIdentitiesStore } from '../stores/identities-store.ts';
import { useImportStore } from '../stores/import-store.ts';
import { usePermissionsStore } from '../stores/permissions-store.ts';
import { useServicesStore } from '../stores/services-store.ts';
import { useShortcutHelpStore } from '../stores/shortcut-help-store.ts';
import { useTriageStore } from '../stores/triage-store.ts';

// The dialogs load with their first opening, not with the first screen (issue 18: the renderer was one chunk of
// 645 kB, most of it code only dialogs need). Each is mounted only while its store says it is open, as each
// rendered nothing when closed anyway; the chat view loads the same way (app/App.tsx).
const named = <K extends string, M extends Record<K, React.ComponentType>>(load: () => Promise<M>, name: K) =>
  lazy(async () => ({ default: (await load())[name] }));

const ImportDialog = named(() => import('../import/ImportDialog.tsx'), 'ImportDialog');
const ServicesDialog = named(() => import('../services/ServicesDialog.tsx'), 'ServicesDialog');
const PermissionsDialog = named(() => import('../permissions/PermissionsDialog.tsx'), 'PermissionsDialog');
const AccountsDialog = named(() => import('../accounts/AccountsDialog.tsx'), 'AccountsDialog');
const TriageDialog = named(() => import('../triage/TriageDialog.tsx'), 'TriageDialog');
const DraftsDialog = named(() => import('../drafts/DraftsDialog.tsx'), 'DraftsDialog');
const DocumentsDialog = named(() => import('../documents/DocumentsDialog.tsx'), 'DocumentsDialog');
const IdentitiesDialog = named(() => import('../identities/IdentitiesDialog.tsx'), 'IdentitiesDialog');
const ShortcutsDialog = named(() => import('../keyboard/ShortcutsDialog.tsx'), 'ShortcutsDialog');
export const ChatView = named(() => import('../chat/ChatView.tsx'), 'ChatView');

export function LazyDialogs() {
  const importOpen = useImportStore((s) => s.open);
  const servicesOpen = useServicesStore((s) => s.open);
  const permissionsOpen = usePermissionsStore((s) => s.open);
  const accountsOpen = useAccountsStore((s) => s.open);
  const triageOpen = useTriageStore((s) => s.open);
  const draftsOpen = useDraftsStore((s) => s.open);
  // The Documents dialog also shows the page a document chip opens, over the reader.
  const documentsOpen = useDocumentsStore((s) => s.open || s.page !== null);
  const identitiesOpen = useIdentitiesStore((s) => s.open);
  const shortcutsOpen = useShortcutHelpStore((s) => s.open);
  return (
    <Suspense fallback={null}>
      {importOpen && <ImportDialog />}
      {servicesOpen && <ServicesDialog />}
      {permissionsOpen && <PermissionsDialog />}
      {accountsOpen && <AccountsDialog />}
      {triageOpen && <TriageDialog />}
      {draftsOpen && <DraftsDialog />}
      {documentsOpen && <DocumentsDialog />}
      {identitiesOpen && <IdentitiesDialog />}
      {shortcutsOpen && <ShortcutsDialog />}
    </Suspense>
  );
}
