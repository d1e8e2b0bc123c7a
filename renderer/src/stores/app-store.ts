// App-wide state: what Skimmer reports about itself, which view shows (mail or chat), the theme, and short
// messages for the user (toasts).
import { create } from 'zustand';
import type { BridgeError, Response } from '../../../shared/contract/index.ts';
import { bridge } from '../bridge.ts';

type AppInfo = Response<'app:info'>;
export type Theme = 'light' | 'dark';
type View = 'mail' | 'chat';
type Toast = { id: number; text: string };

type AppState = {
  info: AppInfo | null;
  infoError: string | null;
  view: View;
  theme: Theme;
  toasts: Toast[];
  loadInfo(): Promise<void>;
  showView(view: View): void;
  toggleTheme(): void;
  showError(error: BridgeError | string): void;
  dismissToast(id: number): void;
};

const themeKey = 'skimmer.theme';
const toastMs = 8000;
const maxToasts = 4;
let nextToastId = 1;

// The saved choice wins; otherwise the system's preference.
function initialTheme(): Theme {
  try {
    const saved = localStorage.getItem(themeKey);
    if (saved === 'light' || saved === 'dark') return saved;
  } catch {
    // Storage can be unavailable (privacy settings); the system preference still applies.
  }
  return window.matchMedia?.('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}

export const useAppStore = create<AppState>()((set, get) => ({
  info: null,
  infoError: null,
  view: 'mail',
  theme: initialTheme(),
  toasts: [],

  async loadInfo() {
    const reply = await bridge['app:info']({});
    if (reply.ok) set({ info: reply.value, infoError: null });
    else set({ infoError: reply.error.message });
  },

  showView(view) {
    set({ view });
  },

  toggleTheme() {
    const theme: Theme = get().theme === 'dark' ? 'light' : 'dark';
    set({ theme });
    try {
      localStorage.setItem(themeKey, theme);
    } catch {
      // Not saved; the choice still holds for this session.
    }
  },

  showError(error) {
    const text = typeof error === 'string' ? error : error.message;
    if (get().toasts.some((toast) => toast.text === text)) return;
    const id = nextToastId++;
    set((state) => ({ toasts: [...state.toasts, { id, text }].slice(-maxToasts) }));
    setTimeout(() => get().dismissToast(id), toastMs);
  },

  dismissToast(id) {
    set((state) => ({ toasts: state.toasts.filter((toast) => toast.id !== id) }));
  },
}));
