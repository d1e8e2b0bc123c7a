// Approval grants (DESIGN §7): "once" (an approval, never stored), "for this conversation" and "always for
// this tool". Owns the `grants` table.
//
// Decisions taken here (and tested in grants.test.ts):
// - Only `write` tools can be granted. `send` and `delete` always ask (no grant is offered, and
//   `grant` refuses one); `read` tools never ask, so a grant would mean nothing.
// - A grant only turns the gate's `approve` into `allow`. It never loosens a `deny`, and it is looked up
//   by the tool's effect at decision time, so a tool that became `send` after it was granted still asks.
// - SECURITY: a `send` to a recipient the user never named (`provenance.notNamedByUser`) is never
//   auto-allowed, whatever the grants say (DESIGN §7, Provenance). Sends always ask anyway; the check is
//   kept on its own so that no later change to the send rule can drop it silently.
// - A grant covers a write whose arguments carry `fromUntrusted` marks. The provenance tracker counts every
//   tool result as untrusted, so the message ids a search returns mark nearly every write on a message;
//   refusing those would make grants useless. Writes are the reversible effect (archive, label, move);
//   the irreversible ones (send, delete) always ask and show the marks on the approval card. A tool that
//   wants marked arguments to be refused outright says `deny` in its gate, which no grant overrides.
import type { Db } from '../../db/open.ts';
import { AssistantError } from '../assistant-error.ts';
import {
  type AnyTool,
  callEffect,
  type GateDecision,
  type Provenance,
  type ToolEffect,
} from '../tools/tool.ts';

export type GrantScope = 'once' | 'conversation' | 'always';
export type StoredScope = Exclude<GrantScope, 'once'>;
export type Grant = {
  id: number;
  tool: string;
  scope: StoredScope;
  conversationId: number | null;
  createdAt: number;
};
/** Who took a decision, as the audit stores it. */
export type GrantDecision = { decision: GateDecision; decidedBy: 'gate' | 'grant' };

/** The tool's own gate (or the default: read → allow, else approve), before grants. */
function baseGate(tool: AnyTool, args: unknown, provenance: Provenance): GateDecision {
  return tool.gate ? tool.gate(args, provenance) : callEffect(tool, args) === 'read' ? 'allow' : 'approve';
}

/** True when one of `grants` lets `tool` run in `conversationId` without asking. */
function covered(tool: AnyTool, grants: readonly Grant[], conversationId: number | null): boolean {
  return grants.some(
    (g) =>
      g.tool === tool.name &&
      (g.scope === 'always' || (conversationId !== null && g.conversationId === conversationId)),
  );
}

/**
 * Pure: the decision for one call given the active grants. `send` and `delete` never end up `allow`,
 * and a grant never loosens a `deny`.
 */
function decideWithGrants(
  tool: AnyTool,
  args: unknown,
  provenance: Provenance,
  grants: readonly Grant[],
  conversationId: number | null,
): GrantDecision {
  const gated = baseGate(tool, args, provenance);
  if (gated === 'deny') return { decision: 'deny', decidedBy: 'gate' };
  const effect = callEffect(tool, args);
  // SECURITY: a send to someone the user never named always asks, whatever the grants (DESIGN §7).
  if (effect === 'send' && provenance.notNamedByUser.length > 0) {
    return { decision: 'approve', decidedBy: 'gate' };
  }
  // SECURITY: sending and deleting always ask; no gate and no grant turns that off (DESIGN §7). The call's own
  // effect counts: a grant for moves never covers a move into the Trash.
  if (effect === 'send' || effect === 'delete') return { decision: 'approve', decidedBy: 'gate' };
  if (gated === 'allow') return { decision: 'allow', decidedBy: 'gate' };
  if (effect === 'write' && covered(tool, grants, conversationId)) {
    return { decision: 'allow', decidedBy: 'grant' };
  }
  return { decision: 'approve', decidedBy: 'gate' };
}

type GrantRow = {
  id: number;
  tool: string;
  scope: StoredScope;
  conversation_id: number | null;
  created_at: number;
};
const toGrant = (r: GrantRow): Grant => ({
  id: r.id,
  tool: r.tool,
  scope: r.scope,
  conversationId: r.conversation_id,
  createdAt: r.created_at,
});
const columns = 'id, tool, scope, conversation_id, created_at';

export function prepareGrants(db: Db, now: () => number = Date.now) {
  const insert = db.prepare<[string, StoredScope, number | null, number]>(
    'INSERT INTO grants (tool, scope, conversation_id, created_at) VALUES (?, ?, ?, ?)',
  );
  const findActive = db.prepare<[string, StoredScope, number | null], GrantRow>(
    `SELECT ${columns} FROM grants
     WHERE tool = ? AND scope = ? AND conversation_id IS ? AND revoked_at IS NULL`,
  );
  const byId = db.prepare<[number], GrantRow>(`SELECT ${columns} FROM grants WHERE id = ?`);
  const active = db.prepare<[], GrantRow>(
    `SELECT ${columns} FROM grants WHERE revoked_at IS NULL ORDER BY created_at DESC, id DESC`,
  );
  const activeFor = db.prepare<[string], GrantRow>(
    `SELECT ${columns} FROM grants WHERE tool = ? AND revoked_at IS NULL`,
  );
  const conversationExists = db.prepare<[number]>('SELECT 1 FROM conversations WHERE id = ?').pluck();
  const revoke = db.prepare<[number, number]>(
    'UPDATE grants SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL',
  );

  const grantsFor = (tool: AnyTool): Grant[] => activeFor.all(tool.name).map(toGrant);

  return {
    /**
     * Stores a grant and returns it; `once` is only an approval, so it stores nothing and returns null.
     * Granting what is already granted returns the existing grant.
     */
    grant(tool: string, effect: ToolEffect, scope: GrantScope, conversationId?: number): Grant | null {
      if (effect === 'send' || effect === 'delete') {
        throw new AssistantError(
          'always_asks',
          `Skimmer always asks before it ${effect === 'send' ? 'sends' : 'deletes'} anything, so ${tool} cannot be allowed in advance.`,
        );
      }
      if (effect === 'read') {
        throw new AssistantError('invalid', `${tool} only reads, so it never asks and needs no grant.`);
      }
      if (scope === 'once') return null;
      const conversation = scope === 'conversation' ? (conversationId ?? null) : null;
      if (scope === 'conversation') {
        if (conversation === null) {
          throw new AssistantError('invalid', 'A grant for this conversation needs the conversation.');
        }
        if (conversationExists.get(conversation) === undefined) {
          throw new AssistantError('not_found', 'That conversation no longer exists.');
        }
      }
      return db.transaction((): Grant => {
        const existing = findActive.get(tool, scope, conversation);
        if (existing) return toGrant(existing);
        const id = Number(insert.run(tool, scope, conversation, now()).lastInsertRowid);
        return toGrant(byId.get(id) as GrantRow);
      })();
    },

    /** Active grants, newest first, for the settings list. */
    list: (): Grant[] => active.all().map(toGrant),

    /** Revokes an active grant; a grant that is unknown or already revoked is `not_found`. */
    revoke(id: number): void {
      if (revoke.run(now(), id).changes === 0) {
        throw new AssistantError('not_found', 'That grant does not exist or was already revoked.');
      }
    },

    /** The decision for one call, with this database's active grants for the tool. */
    decide: (tool: AnyTool, args: unknown, provenance: Provenance, conversationId: number | null) =>
      decideWithGrants(tool, args, provenance, grantsFor(tool), conversationId),

    /**
     * The tool with a gate that consults the grants, for `checkCall` (chat/call-gate.ts, whose `gateDecision`
     * still turns any `allow` for send/delete into `approve`). Grants are read at each call, so a revoke applies to
     * the next call of a running conversation.
     */
    withGrants(tool: AnyTool, conversationId: number | null): AnyTool {
      return {
        ...tool,
        gate: (args, provenance) =>
          decideWithGrants(tool, args, provenance, grantsFor(tool), conversationId).decision,
      };
    },
  };
}
