// Whether the Keyboard shortcuts dialog (`?`, keyboard/ShortcutsDialog.tsx) is open.
import { create } from 'zustand';

type ShortcutHelpState = { open: boolean; show(): void; close(): void };

export const useShortcutHelpStore = create<ShortcutHelpState>()((set) => ({
  open: false,
  show: () => set({ open: true }),
  close: () => set({ open: false }),
}));
