// The Permissions screen (DESIGN §7): the grants the user gave ("for this conversation", "always"), each
// revocable, and the activity log of every tool call with its decision. Opening it asks Skimmer alone.
import { create } from 'zustand';
import type { AuditView, GrantView } from '../../../shared/contract/index.ts';
import { bridge } from '../bridge.ts';

type PermissionsState = {
  open: boolean;
  grants: GrantView[];
  grantsError: string | null;
  audit: AuditView[];
  auditError: string | null;
  loading: boolean;
  revoking: number | null;
  revokeError: string | null;

  openDialog(): void;
  closeDialog(): void;
  load(): Promise<void>;
  revoke(id: number): Promise<void>;
};

// The newest entries; the log keeps more, and the contract allows up to 1000 a read.
const auditLimit = 200;

export const usePermissionsStore = create<PermissionsState>()((set, get) => ({
  open: false,
  grants: [],
  grantsError: null,
  audit: [],
  auditError: null,
  loading: false,
  revoking: null,
  revokeError: null,

  openDialog() {
    if (get().open) return;
    set({ open: true, revokeError: null });
    void get().load();
  },

  closeDialog() {
    set({ open: false });
  },

  async load() {
    set({ loading: true });
    const [grants, audit] = await Promise.all([
      bridge['grant:list']({}),
      bridge['audit:list']({ limit: auditLimit }),
    ]);
    set({
      loading: false,
      grants: grants.ok ? grants.value : [],
      grantsError: grants.ok ? null : grants.error.message,
      audit: audit.ok ? audit.value : [],
      auditError: audit.ok ? null : audit.error.message,
    });
  },

  async revoke(id) {
    if (get().revoking !== null) return;
    set({ revoking: id, revokeError: null });
    const reply = await bridge['grant:revoke']({ id });
    if (!reply.ok) {
      set({ revoking: null, revokeError: reply.error.message });
      return;
    }
    set((state) => ({ revoking: null, grants: state.grants.filter((grant) => grant.id !== id) }));
  },
}));
