import { Suspense, useEffect, useRef } from 'react';
import { ComposePanel } from '../compose/ComposePanel.tsx';
import { FolderPane } from '../folders/FolderPane.tsx';
import { useShortcuts } from '../keyboard/shortcuts.ts';
import { BackToList } from '../layout/BackToList.tsx';
import { useNarrow } from '../layout/narrow.ts';
import { OutboxBar } from '../outbox/OutboxBar.tsx';
import { LinkConfirm } from '../reader/LinkConfirm.tsx';
import { ReaderPane } from '../reader/ReaderPane.tsx';
import { UnsubscribeConfirm } from '../reader/UnsubscribeButton.tsx';
import { useAccountsStore } from '../stores/accounts-store.ts';
import { useAppStore } from '../stores/app-store.ts';
import { useComposeStore } from '../stores/compose-store.ts';
import { useDraftsStore } from '../stores/drafts-store.ts';
import { useImportStore } from '../stores/import-store.ts';
import { useMailStore } from '../stores/mail-store.ts';
import { useModelChoicesStore } from '../stores/model-choices-store.ts';
import { useOutboxStore } from '../stores/outbox-store.ts';
import { useUndoStore } from '../stores/undo-store.ts';
import { LabelPicker } from '../threads/LabelPicker.tsx';
import { MovePicker } from '../threads/MovePicker.tsx';
import { ThreadPane } from '../threads/ThreadPane.tsx';
import { AskDialog } from './AskDialog.tsx';
import { EmptyState } from './EmptyState.tsx';
import { ChatView, LazyDialogs } from './LazyDialogs.tsx';
import { Toasts } from './Toasts.tsx';
import { TopBar } from './TopBar.tsx';
import { windowTitle } from './window-title.ts';

export function App() {
  const theme = useAppStore((state) => state.theme);
  const info = useAppStore((state) => state.info);
  const view = useAppStore((state) => state.view);
  const importOpen = useImportStore((state) => state.open);
  const narrow = useNarrow();
  const reading = useMailStore(
    (state) => narrow && (state.openThread !== null || state.threadLoadingId !== null),
  );
  const previousView = useRef(view);
  const title = useMailStore((state) =>
    windowTitle({ view, mailView: state.view, folderId: state.folderId, folders: state.folders }),
  );

  useEffect(() => {
    document.documentElement.dataset.theme = theme;
  }, [theme]);

  // The desktop window's title follows the page's (Electron's default), so both modes show the unread count.
  useEffect(() => {
    document.title = title;
  }, [title]);

  useEffect(() => {
    void useAppStore.getState().loadInfo();
    void useMailStore.getState().start();
    void useUndoStore.getState().start();
    void useOutboxStore.getState().check();
    void useDraftsStore.getState().load();
    void useModelChoicesStore.getState().load();
    // A draft that was open in the composer when the page reloaded opens again, with what was typed.
    void useComposeStore.getState().restore();
  }, []);

  // The background sync's status for the page's lifetime: new mail shows as it arrives.
  useEffect(() => {
    const accounts = useAccountsStore.getState();
    void accounts.start();
    const onHide = () => accounts.stop();
    const onShow = (event: PageTransitionEvent) => {
      if (event.persisted) void accounts.start();
    };
    window.addEventListener('pagehide', onHide);
    window.addEventListener('pageshow', onShow);
    return () => {
      window.removeEventListener('pagehide', onHide);
      window.removeEventListener('pageshow', onShow);
    };
  }, []);

  // Back from Chat, the mail is read again: the assistant may have archived or labelled some of it meanwhile.
  useEffect(() => {
    if (view === 'mail' && previousView.current === 'chat') void useMailStore.getState().refresh();
    previousView.current = view;
  }, [view]);

  useShortcuts();

  return (
    <div className="app">
      <TopBar />
      {view === 'chat' ? (
        <Suspense fallback={null}>
          <ChatView />
        </Suspense>
      ) : info?.messages === 0 ? (
        // While the import dialog is open it holds the import buttons, so they exist only once on the page.
        <EmptyState showActions={!importOpen} demoAvailable={info.demoAvailable} />
      ) : (
        <main className={reading ? 'panes reading' : 'panes'}>
          <FolderPane />
          <ThreadPane />
          {/* In a narrow window the reader takes the list's place (layout-narrow.css); Back puts it back. */}
          <div className="reader-column">
            {reading && <BackToList />}
            <ReaderPane />
          </div>
        </main>
      )}
      {view === 'mail' && <ComposePanel />}
      <LazyDialogs />
      <LinkConfirm />
      <UnsubscribeConfirm />
      <AskDialog />
      <LabelPicker />
      <MovePicker />
      <OutboxBar />
      <Toasts />
    </div>
  );
}
