// Drafts and the outbox they are sent through (undo-window.ts says how long there is to undo).
import { z } from 'zod';
import { EpochMs, Id } from './fields.ts';

export const OutboxItem = z.object({
  id: Id,
  accountId: Id,
  to: z.array(z.string()),
  subject: z.string(),
  state: z.enum(['queued', 'sending', 'sent', 'failed', 'cancelled']),
  error: z.string().nullable(),
  // Until then Undo cancels it.
  sendAfter: EpochMs,
  sentAt: EpochMs.nullable(),
});
export type OutboxItem = z.infer<typeof OutboxItem>;

export const DraftView = z.object({
  id: Id,
  to: z.array(z.string()),
  cc: z.array(z.string()),
  subject: z.string(),
  body: z.string(),
  inReplyTo: Id.nullable(),
  updatedAt: EpochMs,
});
export type DraftView = z.infer<typeof DraftView>;
const Recipient = z.email().max(320);

// A draft as it will go out: who it is from (the sending account's login; null while no account can send),
// and the threading headers the outbox will write (electron/mail/send/compose.ts).
export const DraftDetail = DraftView.extend({
  from: z.string().nullable(),
  inReplyToHeader: z.string().nullable(),
  references: z.array(z.string()),
});
export type DraftDetail = z.infer<typeof DraftDetail>;

export const draftChannels = {
  'draft:list': {
    request: z.object({}).strict(),
    response: z.array(DraftView),
  },
  'draft:new': {
    // A new draft: written from nothing, or a reply, reply all or forward of a stored message (shared/compose),
    // with `body` as the writer's text above the signature and quote.
    request: z.discriminatedUnion('kind', [
      z
        .object({
          kind: z.literal('blank'),
          to: z.array(Recipient).max(50),
          cc: z.array(Recipient).max(50),
          subject: z.string().max(998),
          body: z.string().max(100_000),
        })
        .strict(),
      z
        .object({
          kind: z.enum(['reply', 'all', 'forward']),
          message: Id,
          to: z.array(Recipient).max(50),
          body: z.string().max(100_000),
        })
        .strict(),
    ]),
    response: DraftDetail,
  },
  'draft:show': {
    request: z.object({ id: Id }).strict(),
    response: DraftDetail,
  },
  'draft:save': {
    request: z
      .object({
        id: Id,
        to: z.array(Recipient).max(50),
        cc: z.array(Recipient).max(50),
        subject: z.string().max(998),
        body: z.string().max(100_000),
      })
      .strict(),
    response: DraftView,
  },
  'draft:send': {
    // The user's own Send: the draft goes to the outbox (undoable for the undo window) and leaves the drafts.
    request: z.object({ id: Id }).strict(),
    response: OutboxItem,
  },
  'draft:discard': {
    request: z.object({ id: Id }).strict(),
    response: z.object({ discarded: z.boolean() }),
  },
} as const;

export const outboxChannels = {
  'outbox:list': {
    request: z.object({}).strict(),
    response: z.array(OutboxItem),
  },
  'outbox:cancel': {
    // Undo a send: works until the message starts to go out, and puts the message back in the drafts (in the
    // same transaction) as `draft`; null when it was not cancelled (already on its way, sent, or unknown).
    request: z.object({ id: Id }).strict(),
    response: z.object({ cancelled: z.boolean(), draft: Id.nullable() }),
  },
  'outbox:retry': {
    request: z.object({ id: Id }).strict(),
    response: z.object({ queued: z.boolean() }),
  },
  'outbox:dismiss': {
    // A failed or cancelled message leaves the outbox and goes back to the drafts, as this draft.
    request: z.object({ id: Id }).strict(),
    response: z.object({ draft: DraftView }),
  },
} as const;
