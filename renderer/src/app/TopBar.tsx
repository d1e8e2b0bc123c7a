import { useAppStore } from '../stores/app-store.ts';
import { useServicesStore } from '../stores/services-store.ts';

export function TopBar() {
  const theme = useAppStore((state) => state.theme);
  const info = useAppStore((state) => state.info);
  const infoError = useAppStore((state) => state.infoError);
  const toggleTheme = useAppStore((state) => state.toggleTheme);
  const openServices = useServicesStore((state) => state.openDialog);

  return (
    <header className="top-bar">
      <span className="app-name">Skimmer</span>
      {info && <span className="mode-badge">{info.mode === 'browser' ? 'Browser mode' : 'Desktop'}</span>}
      {infoError && (
        <span className="top-error" role="alert">
          {infoError}
        </span>
      )}
      <span className="spacer" />
      <span className="key-hint">j/k move · Enter open · / search · u read/unread</span>
      <button type="button" className="ghost" data-testid="services-open" onClick={openServices}>
        Services
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
