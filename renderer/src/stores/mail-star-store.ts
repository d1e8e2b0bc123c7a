// Stars from the mail view (the reader's star button, the list's, and `s`; DESIGN §11, "Stars"). A star is
// applied in Skimmer at once and is undoable (the Undo bar offers it); for a synced account the background
// sync takes it to the server as \Flagged. A conversation is starred when any of its messages is: starring
// stars every message of it, unstarring takes every star off. One change at a time, like a move.
import { create } from 'zustand';
import type { MessageView } from '../../../shared/contract/index.ts';
import { bridge } from '../bridge.ts';
import { useAppStore } from './app-store.ts';
import { useMailStore } from './mail-store.ts';
import { findThread, patchThread } from './thread-pages.ts';
import { useUndoStore } from './undo-store.ts';

const idLimit = 1000; // the contract's bound on ids per call

type StarState = {
  starring: boolean;
  // The given thread's (a button's), else the selected one's (or else the open one's), from the keyboard.
  toggleStar(threadId?: number): Promise<void>;
};

export const useMailStarStore = create<StarState>()((set, get) => ({
  starring: false,

  async toggleStar(threadId) {
    if (get().starring) return;
    const mail = useMailStore.getState();
    const onDocumentHit = mail.hits !== null && mail.hitCursor >= mail.hits.length;
    if (threadId === undefined && onDocumentHit) return;
    const target = threadId ?? mail.selectedThreadId() ?? mail.openThread?.id ?? null;
    if (target === null) return;
    set({ starring: true });
    try {
      let messages: MessageView[] | null = mail.openThread?.id === target ? mail.openThread.messages : null;
      if (!messages) {
        const reply = await bridge['mail:thread']({ threadId: target });
        if (!reply.ok) return useAppStore.getState().showError(reply.error);
        messages = reply.value.messages;
      }
      const row = findThread(mail.pages, target);
      const starred = !(row ? row.starred : messages.some((message) => message.starred));
      const ids = messages.map((message) => message.id).slice(0, idLimit);
      if (ids.length === 0) return;
      let done = false;
      await useUndoStore.getState().track(async () => {
        const reply = await bridge['mail:star']({ ids, starred });
        if (!reply.ok) return useAppStore.getState().showError(reply.error);
        done = true;
      });
      if (!done) return;
      const changed = new Set(ids);
      useMailStore.setState((state) => ({
        pages: patchThread(state.pages, target, { starred }),
        openThread:
          state.openThread?.id === target
            ? {
                ...state.openThread,
                messages: state.openThread.messages.map((message) =>
                  changed.has(message.id) ? { ...message, starred } : message,
                ),
              }
            : state.openThread,
      }));
    } finally {
      set({ starring: false });
    }
  },
}));
