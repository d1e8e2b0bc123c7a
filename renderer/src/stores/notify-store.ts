// New-mail notifications (issue 28), off until the person turns them on (the top bar's toggle), kept in
// localStorage as the theme is. In browser mode the browser's Notification, whose permission is asked only then,
// at that click; in the desktop app Electron's, through `app:notify`. What a round of an account's sync says, if
// anything, is shared/new-mail-notice.ts's decision: nothing for a first sync, one summary for a round's new
// mail. reactions.ts hands this store each round that ended while the page watched.
import { create } from 'zustand';
import type { SyncSummary } from '../../../shared/contract/index.ts';
import { newMailNotice } from '../../../shared/new-mail-notice.ts';
import { bridge } from '../bridge.ts';
import { useAppStore } from './app-store.ts';

const key = 'skimmer.newMailNotifications';
// One notification of Skimmer's at a time: a newer round's (or another tab's) replaces the one still showing.
const tag = 'skimmer-new-mail';

type NotifyState = {
  enabled: boolean;
  toggle(): Promise<void>;
  roundSynced(summary: SyncSummary): void;
};

const browserNotifications = () => (typeof Notification === 'undefined' ? null : Notification);
const isDesktop = () => useAppStore.getState().info?.mode === 'desktop';

function saved(): boolean {
  try {
    return localStorage.getItem(key) === 'on';
  } catch {
    return false;
  }
}

function save(enabled: boolean): void {
  try {
    localStorage.setItem(key, enabled ? 'on' : 'off');
  } catch {
    // Not saved; the choice still holds for this session.
  }
}

export const useNotifyStore = create<NotifyState>()((set, get) => ({
  enabled: saved(),

  async toggle() {
    if (get().enabled) {
      set({ enabled: false });
      save(false);
      return;
    }
    const web = browserNotifications();
    if (!isDesktop()) {
      if (!web) {
        useAppStore.getState().showError('This browser cannot show notifications.');
        return;
      }
      const permission = web.permission === 'granted' ? 'granted' : await web.requestPermission();
      if (permission !== 'granted') {
        useAppStore
          .getState()
          .showError(
            'The browser did not allow notifications: allow them for this page in its site settings, then turn them on again.',
          );
        return;
      }
    }
    set({ enabled: true });
    save(true);
  },

  roundSynced(summary) {
    const web = browserNotifications();
    // A permission taken back in the browser's settings since is respected as off.
    const allowed = get().enabled && (isDesktop() || web?.permission === 'granted');
    const notice = newMailNotice(allowed, summary.newMail);
    if (!notice) return;
    if (isDesktop()) void bridge['app:notify'](notice);
    else if (web) new web(notice.title, { body: notice.body, tag });
  },
}));
