// The event cards of invitations (issue 29 §2), per message: read when a message with a calendar part is shown
// (`invitation:get`), answered (`invitation:respond`, which queues the REPLY in the outbox, whose bar has its
// Undo), and saved for "Add to calendar" (`invitation:ics`, a download like an attachment's Save).
import { create } from 'zustand';
import type { InvitationAnswer, InvitationView } from '../../../shared/contract/index.ts';
import { safeFileName } from '../../../shared/safe-file-name.ts';
import { bridge } from '../bridge.ts';
import { offerDownload } from './save-attachment.ts';

type InvitationState = {
  views: Readonly<Record<number, InvitationView>>;
  // Messages with an answer or a save in flight.
  busy: ReadonlySet<number>;
  errors: Readonly<Record<number, string>>;
  load(message: number): Promise<void>;
  respond(message: number, answer: InvitationAnswer): Promise<void>;
  addToCalendar(message: number): Promise<void>;
};

export const useInvitationStore = create<InvitationState>()((set, get) => {
  const busyWith = (message: number, on: boolean) =>
    set((state) => {
      const busy = new Set(state.busy);
      if (on) busy.add(message);
      else busy.delete(message);
      return { busy };
    });
  const failed = (message: number, sentence: string | null) =>
    set((state) => {
      const errors = { ...state.errors };
      if (sentence === null) delete errors[message];
      else errors[message] = sentence;
      return { errors };
    });

  return {
    views: {},
    busy: new Set(),
    errors: {},

    async load(message) {
      const reply = await bridge['invitation:get']({ message });
      if (reply.ok) set((state) => ({ views: { ...state.views, [message]: reply.value } }));
      else
        set((state) => ({
          views: { ...state.views, [message]: { kind: 'unreadable', sentence: reply.error.message } },
        }));
    },

    async respond(message, answer) {
      if (get().busy.has(message)) return;
      busyWith(message, true);
      failed(message, null);
      const reply = await bridge['invitation:respond']({ message, answer });
      busyWith(message, false);
      if (!reply.ok) failed(message, reply.error.message);
      await get().load(message);
    },

    async addToCalendar(message) {
      if (get().busy.has(message)) return;
      busyWith(message, true);
      failed(message, null);
      const reply = await bridge['invitation:ics']({ message });
      busyWith(message, false);
      if (!reply.ok) {
        failed(message, reply.error.message);
        return;
      }
      const bytes = Uint8Array.from(atob(reply.value.data), (c) => c.charCodeAt(0));
      offerDownload([bytes], safeFileName(reply.value.name, 'invite.ics'));
    },
  };
});
