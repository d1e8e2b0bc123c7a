// Conversations with a model: turns, their blocks, quoted mail as untrusted parts, tool results.
import { z } from 'zod';
import { ApprovalRound, CallAnswer, distinctIds } from './approvals.ts';
import { EpochMs, ErrorCode, Id, ModelRef } from './fields.ts';

export const ConversationSummary = z.object({
  id: Id,
  title: z.string(),
  model: z.string(),
  updatedAt: EpochMs,
});
export type ConversationSummary = z.infer<typeof ConversationSummary>;
// Mail (or any text from it) as a model saw it, for the chat pane to show as an untrusted block: `source`
// names where it came from (`message:12`, or the tool that returned it), `text` is what the model received
// (hidden text already removed, capped for display), `quote` the line that looks like an injection.
export const UntrustedPart = z.object({
  source: z.string(),
  text: z.string(),
  suspect: z.boolean(),
  quote: z.string().nullable(),
});
export type UntrustedPart = z.infer<typeof UntrustedPart>;

// A tool result as the chat pane shows it: the tool's own text, and any mail in it as untrusted parts.
export const ToolResultView = z.object({
  id: z.string(),
  name: z.string(),
  isError: z.boolean(),
  text: z.string(),
  untrusted: z.array(UntrustedPart),
});
export type ToolResultView = z.infer<typeof ToolResultView>;

// One piece of a stored turn: the words, quoted mail (a user turn's context, not the user's words), a call
// the model made, or its result.
export const ChatBlock = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('text'), text: z.string() }),
  z.object({ kind: z.literal('quote'), parts: z.array(UntrustedPart) }),
  z.object({ kind: z.literal('tool_call'), id: z.string(), name: z.string(), args: z.unknown() }),
  ToolResultView.extend({ kind: z.literal('tool_result') }),
]);
export type ChatBlock = z.infer<typeof ChatBlock>;

// What the chat pane shows of a stored turn: its blocks in order, and `text` (the text blocks joined).
export const ChatTurn = z.object({
  role: z.enum(['user', 'assistant']),
  text: z.string(),
  blocks: z.array(ChatBlock),
  usage: z.object({ inputTokens: z.number().int(), outputTokens: z.number().int() }).nullable(),
  // Set when the turn was stopped or failed: Skimmer's sentence for how it ended.
  ended: z
    .object({ outcome: z.enum(['stopped', 'failed']), code: ErrorCode, message: z.string() })
    .nullable(),
  // Set when part of the answer could not be read but the turn went on (DESIGN §6): Skimmer's sentence.
  notice: z.object({ code: ErrorCode, message: z.string() }).optional(),
});
export type ChatTurn = z.infer<typeof ChatTurn>;

export const chatChannels = {
  'chat:send': {
    // `model` is `service/model`; the answer streams as chat_* events on the returned stream.
    request: z
      .object({
        model: ModelRef,
        prompt: z.string().trim().min(1).max(100_000),
        conversationId: Id.optional(),
        // Let the assistant use the mail tools: reads run, anything else waits for the user's approval.
        tools: z.boolean().default(false),
        // Messages quoted as context: sent to the model as untrusted blocks before the prompt.
        quote: z.array(Id).min(1).max(20).optional(),
      })
      .strict(),
    response: z.object({ streamId: z.string() }),
  },
  'chat:answer': {
    // Answers the calls an interrupted run waits for; the run resumes on the returned stream. `model`
    // defaults to the conversation's own.
    request: z
      .object({
        conversationId: Id,
        answers: z.array(CallAnswer).min(1).max(100).refine(distinctIds, 'two answers name one call'),
        model: ModelRef.optional(),
      })
      .strict(),
    response: z.object({ streamId: z.string() }),
  },
  'chat:list': {
    request: z.object({}).strict(),
    response: z.array(ConversationSummary),
  },
  'chat:history': {
    request: z.object({ conversationId: Id }).strict(),
    // `pending`: the calls the conversation's last run waits for (empty unless it was interrupted).
    response: z.object({
      conversation: ConversationSummary,
      turns: z.array(ChatTurn),
      pending: ApprovalRound,
    }),
  },
} as const;
