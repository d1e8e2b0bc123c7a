// Which groups of the folder list (folders/folder-groups.ts) the user collapsed, remembered in localStorage by
// the group's key (an account's id, an import's folder on disk), so a reload or a new folder keeps them.
import { create } from 'zustand';

const storageKey = 'skimmer.folders.collapsed';

function saved(): ReadonlySet<string> {
  try {
    const value: unknown = JSON.parse(localStorage.getItem(storageKey) ?? '[]');
    return new Set(Array.isArray(value) ? value.filter((k): k is string => typeof k === 'string') : []);
  } catch {
    // Unreadable or unavailable storage: every group open.
    return new Set();
  }
}

type FolderGroupsState = {
  collapsed: ReadonlySet<string>;
  toggle(key: string): void;
};

export const useFolderGroupsStore = create<FolderGroupsState>()((set, get) => ({
  collapsed: saved(),

  toggle(key) {
    const collapsed = new Set(get().collapsed);
    if (!collapsed.delete(key)) collapsed.add(key);
    set({ collapsed });
    try {
      localStorage.setItem(storageKey, JSON.stringify([...collapsed]));
    } catch {
      // Not remembered; the choice still holds for this session.
    }
  },
}));
