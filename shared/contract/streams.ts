// Streams: stopping one, and every event one carries.
import { z } from 'zod';
import { SyncProgress, SyncSummary } from './accounts.ts';
import { AgentRequestView } from './agents.ts';
import { ApprovalRound } from './approvals.ts';
import { ToolResultView, UntrustedPart } from './chat.ts';
import { DraftedReply } from './draft-replies.ts';
import { OutboxItem } from './drafts.ts';
import { BridgeError, ErrorCode, Id } from './fields.ts';
import { ImportSummary } from './mail.ts';
import { GroundedView } from './summary.ts';
import { TriageJobView } from './triage.ts';

export const runChannels = {
  'run:cancel': {
    request: z.object({ streamId: z.string().min(1).max(100) }).strict(),
    response: z.object({ cancelled: z.boolean() }),
  },
} as const;

// Stream events. Each carries the streamId of the call that started it; a stop is `run:cancel`.
const ImportProgress = z.object({
  type: z.literal('import_progress'),
  messages: z.number().int().nonnegative(),
  imported: z.number().int().nonnegative(),
  duplicates: z.number().int().nonnegative(),
  failed: z.number().int().nonnegative(),
  bytesDone: z.number().nonnegative(),
  bytesTotal: z.number().nonnegative(),
  perSecond: z.number().nonnegative(),
  etaSeconds: z.number().nonnegative().nullable(),
});
export const StreamEvent = z.discriminatedUnion('type', [
  ImportProgress,
  z.object({ type: z.literal('chat_start'), conversationId: Id }),
  z.object({ type: z.literal('chat_text'), text: z.string() }),
  // Why the request is being retried (rate_limited, unavailable, transport, timeout) and when.
  z.object({ type: z.literal('chat_retry'), code: ErrorCode, seconds: z.number().nonnegative() }),
  z.object({ type: z.literal('chat_usage'), inputTokens: z.number().int(), outputTokens: z.number().int() }),
  // Part of the answer could not be read; the answer goes on, and is kept marked (DESIGN §6).
  z.object({ type: z.literal('chat_notice'), code: ErrorCode, message: z.string() }),
  // Quoted mail exactly as the model will see it, right after chat_start.
  z.object({ type: z.literal('chat_context'), parts: z.array(UntrustedPart) }),
  z.object({ type: z.literal('chat_tool_call'), id: z.string(), name: z.string(), args: z.unknown() }),
  ToolResultView.extend({ type: z.literal('chat_tool_result') }),
  // Ends the stream: the run waits for the user's answer to these calls (`chat:answer`).
  z.object({ type: z.literal('chat_interrupted'), conversationId: Id, calls: ApprovalRound }),
  z.object({ type: z.literal('chat_done'), stopReason: z.string() }),
  // One sentence by Skimmer, and the provider's own words only as a redacted, capped detail.
  z.object({
    type: z.literal('chat_error'),
    code: ErrorCode,
    message: z.string(),
    detail: z.string().max(200).optional(),
  }),
  z.object({ type: z.literal('import_done'), summary: ImportSummary, cancelled: z.boolean() }),
  SyncProgress.extend({ type: z.literal('sync_progress') }),
  z.object({ type: z.literal('sync_done'), summary: SyncSummary }),
  z.object({
    type: z.literal('triage_progress'),
    jobId: Id,
    done: z.number().int().nonnegative(),
    failed: z.number().int().nonnegative(),
    total: z.number().int().nonnegative(),
    perSecond: z.number().nonnegative(),
    etaSeconds: z.number().nonnegative().nullable(),
  }),
  z.object({ type: z.literal('triage_done'), job: TriageJobView }),
  z.object({ type: z.literal('summary_done'), result: GroundedView }),
  z.object({ type: z.literal('draft_reply_done'), result: DraftedReply }),
  // From `account:watch`: how an account's background sync stands; `changed` when mail was added, moved or
  // removed, so the page reloads what it shows.
  z.object({
    type: z.literal('account_status'),
    accountId: Id,
    state: z.enum(['syncing', 'synced', 'retrying', 'failed', 'stopped']),
    message: z.string().nullable(),
    retryInSeconds: z.number().nonnegative().nullable(),
    changed: z.boolean(),
    progress: SyncProgress.nullable(),
    // With `synced`: what that round did.
    summary: SyncSummary.nullable(),
  }),
  // From `account:watch`: a job the long-running app started on new mail (DESIGN §9) began or ended.
  z.object({ type: z.literal('triage_job'), job: TriageJobView }),
  // From `account:watch`: a message in the outbox changed; `item` is null when it left the outbox (dismissed
  // back to the drafts).
  z.object({ type: z.literal('outbox'), id: Id, item: OutboxItem.nullable() }),
  // From `agent:watch`: the outside agents' requests that wait now; `changed` when an agent's call changed mail,
  // and `agent` the name the Undo bar gives that agent (electron/mcp/agent-label.ts: cleaned, at most 40).
  z.object({
    type: z.literal('agent_requests'),
    requests: z.array(AgentRequestView),
    changed: z.boolean(),
    agent: z.string().max(40).nullable(),
  }),
  z.object({ type: z.literal('error'), error: BridgeError }),
]);
export type StreamEvent = z.infer<typeof StreamEvent>;
export const StreamMessage = z.object({ streamId: z.string(), event: StreamEvent });
export type StreamMessage = z.infer<typeof StreamMessage>;
