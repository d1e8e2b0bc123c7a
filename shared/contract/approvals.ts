// Tool calls the user is asked about, the grants that allow a tool, and the audit of every call (DESIGN §7).
import { z } from 'zod';
import { EpochMs, Id } from './fields.ts';

export const ToolEffect = z.enum(['read', 'write', 'send', 'delete']);
export type ToolEffect = z.infer<typeof ToolEffect>;

export const Provenance = z.object({
  // Argument paths (`to[0]`, `body`) whose text came from an email and not from the user's words.
  fromUntrusted: z.array(z.string()),
  // Mail addresses and URLs in the arguments that the user never wrote.
  notNamedByUser: z.array(z.string()),
});
export type Provenance = z.infer<typeof Provenance>;

// A call the user is asked about, as the approval card shows it. `held` calls were already allowed (by the
// tool's gate or a grant) but belong to a round that waits for the user: they run when the round is answered,
// unless the user denies them too. `grantable`: "for this conversation" and "always" may be offered.
// `id` is Skimmer's own for the call (never the provider's alone) and `argsHash` the hash of its arguments:
// an answer names both, so it can only ever decide this call (DESIGN §7).
export const ArgsHash = z
  .string()
  .length(64)
  .regex(/^[0-9a-f]{64}$/, 'an arguments hash is 64 hex digits');
export const ApprovalCall = z.object({
  id: z.string(),
  argsHash: ArgsHash,
  name: z.string(),
  effect: ToolEffect,
  args: z.unknown(),
  preview: z.object({ title: z.string(), lines: z.array(z.string()) }),
  provenance: Provenance,
  grantable: z.boolean(),
  held: z.boolean(),
});
export type ApprovalCall = z.infer<typeof ApprovalCall>;
// SECURITY: the card keeps one decision per call id, so a round's ids must be distinct (Skimmer makes them so).
export const distinctIds = (items: readonly { id: string }[]) =>
  new Set(items.map((i) => i.id)).size === items.length;
export const ApprovalRound = z.array(ApprovalCall).refine(distinctIds, 'two calls of a round have one id');

const GrantScope = z.enum(['once', 'conversation', 'always']);
export const CallAnswer = z
  .object({
    id: z.string().min(1).max(200),
    argsHash: ArgsHash,
    decision: z.enum(['approve', 'deny']),
    // Given back to the model with a denial.
    reason: z.string().trim().max(1000).optional(),
    // With an approval of a `write` call: also allow this tool from now on, in this conversation or always.
    grant: GrantScope.default('once'),
  })
  .strict();
export type CallAnswer = z.input<typeof CallAnswer>;

export const GrantView = z.object({
  id: Id,
  tool: z.string(),
  scope: z.enum(['conversation', 'always']),
  conversationId: Id.nullable(),
  conversationTitle: z.string().nullable(),
  createdAt: EpochMs,
});
export type GrantView = z.infer<typeof GrantView>;

// A tool call of a conversation, or a step of a triage job (answers asked, a rule's approved writes).
export const AuditView = z.object({
  id: Id,
  at: EpochMs,
  conversationId: Id.nullable(),
  jobId: Id.nullable(),
  // The outside agent that made the call through `skimmer mcp`, as it named itself (DESIGN §13).
  client: z.string().nullable(),
  callId: z.string(),
  tool: z.string(),
  effect: ToolEffect,
  args: z.unknown(),
  provenance: Provenance,
  decision: z.enum(['allowed', 'approved', 'denied', 'auto-denied', 'invalid', 'cancelled']),
  decidedBy: z.enum(['gate', 'grant', 'user', 'engine']),
  resultSummary: z.string(),
  isError: z.boolean(),
});
export type AuditView = z.infer<typeof AuditView>;

export const grantChannels = {
  'grant:list': {
    request: z.object({}).strict(),
    response: z.array(GrantView),
  },
  'grant:revoke': {
    request: z.object({ id: Id }).strict(),
    response: z.object({ revoked: z.literal(true) }),
  },
} as const;

export const auditChannels = {
  'audit:list': {
    request: z
      .object({
        conversationId: Id.optional(),
        jobId: Id.optional(),
        limit: z.number().int().min(1).max(1000).default(200),
      })
      .strict(),
    response: z.array(AuditView),
  },
} as const;
