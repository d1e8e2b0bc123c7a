// Calls from outside agents that wait for the user in the running app (DESIGN §13, "Outside agents"). The MCP
// server (another process) asks here and polls its row; the app lists what waits, on an approval card, and
// answers. Owns the `agent_requests` table (migration 0028).
//
// Decisions taken here:
// - A row is what the card shows: arguments and preview as Skimmer wrote them, whole, with only the secrets
//   saved in this Skimmer masked (DESIGN §4). The call itself stays in the MCP server's memory; an answer decides it only when it
//   names the row and the hash of the arguments the card showed (as `chat:answer` does, DESIGN §7).
// - Once decided, expired or withdrawn, a row never changes again: the first answer wins, a late one is refused.
// - A row past its `expires_at` is not pending even before the server marks it: the app never shows a card
//   whose answer nobody would hear.
import type { ApprovalCall } from '../../shared/contract/index.ts';
import { AssistantError } from '../ai/assistant-error.ts';
import { capText, maskKeys } from '../ai/protocol/redact.ts';
import type { CallPreview, Provenance, ToolEffect } from '../ai/tools/tool.ts';
import type { Db } from '../db/open.ts';

type RequestState = 'pending' | 'approved' | 'denied' | 'expired' | 'withdrawn';
type AskedEffect = Exclude<ToolEffect, 'read'>;

/** A call as the app shows it, with who asked and until when. */
export type AgentRequest = {
  id: number;
  client: string;
  askedAt: number;
  expiresAt: number;
  call: ApprovalCall;
};

type NewRequest = {
  client: string;
  callId: string;
  tool: string;
  effect: AskedEffect;
  args: unknown;
  argsHash: string;
  provenance: Provenance;
  preview: CallPreview;
  timeoutMs: number;
  /** The secrets saved in this Skimmer (KeyVault.values): masked on the card, by value. */
  keys: readonly string[];
};

type Row = {
  id: number;
  client: string;
  call_id: string;
  tool: string;
  effect: AskedEffect;
  args_json: string;
  args_hash: string;
  provenance_json: string;
  preview_json: string;
  asked_at: number;
  expires_at: number;
  state: RequestState;
};

// SECURITY: the card shows the whole call as it will run (issue 27): nothing is cut or reflowed, so a body
// line padded with spaces cannot push "PS … wire it to ATTACKER" out of sight, and nothing shaped like a key is
// hidden, since it would go out all the same. Only the secrets saved in this Skimmer are masked, by value: an
// agent may echo one, and the row is stored.
function masked(value: unknown, keys: readonly string[]): unknown {
  if (typeof value === 'string') return maskKeys(value, keys, savedKeyMask);
  if (Array.isArray(value)) return value.map((v) => masked(v, keys));
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, masked(v, keys)]));
  }
  return value;
}
const savedKeyMask = '⟦a key saved in Skimmer⟧';

const toRequest = (r: Row): AgentRequest => {
  return {
    id: r.id,
    client: r.client,
    askedAt: r.asked_at,
    expiresAt: r.expires_at,
    call: {
      id: r.call_id,
      argsHash: r.args_hash,
      name: r.tool,
      effect: r.effect,
      args: JSON.parse(r.args_json),
      preview: JSON.parse(r.preview_json),
      provenance: JSON.parse(r.provenance_json),
      // An outside agent's call is approved once: grants are given in the app's own chat only.
      grantable: false,
      held: false,
    },
  };
};

export function prepareAgentRequests(db: Db, now: () => number = Date.now) {
  const insert = db.prepare(
    `INSERT INTO agent_requests (client, call_id, tool, effect, args_json, args_hash, provenance_json, preview_json,
       asked_at, expires_at)
     VALUES (@client, @callId, @tool, @effect, @args, @argsHash, @provenance, @preview, @at, @expires)`,
  );
  const stateOf = db.prepare<[number], { state: RequestState }>(
    'SELECT state FROM agent_requests WHERE id = ?',
  );
  const open = db.prepare<[number], Row>(
    "SELECT * FROM agent_requests WHERE state = 'pending' AND expires_at > ? ORDER BY id",
  );
  const byId = db.prepare<[number], Row>('SELECT * FROM agent_requests WHERE id = ?');
  const settle = db.prepare<[RequestState, number, number]>(
    "UPDATE agent_requests SET state = ?, decided_at = ? WHERE id = ? AND state = 'pending'",
  );

  return {
    /** Stores a call that waits for the user; returns its row id. */
    ask(r: NewRequest): number {
      const at = now();
      return Number(
        insert.run({
          client: capText(r.client, 100),
          callId: r.callId,
          tool: r.tool,
          effect: r.effect,
          args: JSON.stringify(masked(r.args, r.keys)),
          argsHash: r.argsHash,
          provenance: JSON.stringify(r.provenance),
          preview: JSON.stringify(masked(r.preview, r.keys)),
          at,
          expires: at + r.timeoutMs,
        }).lastInsertRowid,
      );
    },

    /** The row's state; a pending row past its time is `expired` (and is marked so). */
    state(id: number): RequestState {
      const row = byId.get(id);
      if (!row) return 'withdrawn';
      if (row.state === 'pending' && row.expires_at <= now()) {
        settle.run('expired', now(), id);
        return stateOf.get(id)?.state ?? 'expired';
      }
      return row.state;
    },

    /** The agent went away or stopped the call: the card disappears, a later answer is refused. */
    withdraw(id: number): void {
      settle.run('withdrawn', now(), id);
    },

    /** What waits for the user, oldest first. */
    pending: (): AgentRequest[] => open.all(now()).map(toRequest),

    /**
     * The user's answer from the app's card. SECURITY: it decides the one waiting row it names, and only for
     * the arguments the card showed (their hash); anything else is refused and decides nothing.
     */
    answer(id: number, argsHash: string, decision: 'approve' | 'deny'): void {
      const row = byId.get(id);
      if (row?.state !== 'pending' || row.expires_at <= now() || row.args_hash !== argsHash) {
        throw new AssistantError('not_found', 'That request from an agent is no longer waiting.');
      }
      if (settle.run(decision === 'approve' ? 'approved' : 'denied', now(), id).changes === 0) {
        throw new AssistantError('not_found', 'That request from an agent is no longer waiting.');
      }
    },
  };
}
