// The settings side of consent (DESIGN §7): the grants the user gave, revocable, and the audit log of every
// tool call. Reads and one revoke; nothing here can grant (grants are given only with an approval).
import type { AuditView, GrantView } from '../../../shared/contract/index.ts';
import type { prepareConversations } from '../../ai/chat/conversations.ts';
import { prepareAudit } from '../../ai/safety/audit.ts';
import type { prepareGrants } from '../../ai/safety/grants.ts';
import type { Db } from '../../db/open.ts';
import type { Handlers } from '../dispatch.ts';

type Deps = {
  db: Db;
  conversations: ReturnType<typeof prepareConversations>;
  grants: ReturnType<typeof prepareGrants>;
};

export function approvalHandlers(deps: Deps): Pick<Handlers, 'grant:list' | 'grant:revoke' | 'audit:list'> {
  // Reading needs no keys: what is stored was masked when it was written.
  const audit = prepareAudit(deps.db, () => []);
  return {
    'grant:list': () =>
      deps.grants.list().map(
        (g): GrantView => ({
          id: g.id,
          tool: g.tool,
          scope: g.scope,
          conversationId: g.conversationId,
          conversationTitle:
            g.conversationId === null ? null : (deps.conversations.summary(g.conversationId)?.title ?? null),
          createdAt: g.createdAt,
        }),
      ),
    'grant:revoke': (r) => {
      deps.grants.revoke(r.id);
      return { revoked: true as const };
    },
    'audit:list': (r) =>
      audit
        .list({
          ...(r.conversationId !== undefined ? { conversationId: r.conversationId } : {}),
          ...(r.jobId !== undefined ? { jobId: r.jobId } : {}),
          limit: r.limit,
        })
        .map(({ runId: _run, ...record }): AuditView => record),
  };
}
