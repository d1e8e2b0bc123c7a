// Drafts and the outbox they are sent through (undo-window.ts says how long there is to undo).
import { z } from 'zod';
import { EpochMs, Id } from './fields.ts';
import { attachmentChunkBytes, maxAttachmentBytes } from './limits.ts';

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

// A file on a draft: one the user attached (its bytes kept with the draft until it is sent or discarded), or
// one carried from the message forwarded (its bytes stay where the original's are and are read at send).
export const DraftAttachment = z.object({
  id: Id,
  name: z.string(),
  contentType: z.string(),
  size: z.number().int().nonnegative(),
  origin: z.enum(['file', 'forwarded']),
});
export type DraftAttachment = z.infer<typeof DraftAttachment>;

export const DraftView = z.object({
  id: Id,
  // The address the user chose to send from (one of identity:list); null: the sending account's own.
  fromAddress: z.string().nullable(),
  to: z.array(z.string()),
  cc: z.array(z.string()),
  bcc: z.array(z.string()),
  subject: z.string(),
  body: z.string(),
  inReplyTo: Id.nullable(),
  // The message this forwards (its attachments are carried from it); null for a new mail or a reply.
  forwardOf: Id.nullable(),
  attachments: z.array(DraftAttachment),
  updatedAt: EpochMs,
});
export type DraftView = z.infer<typeof DraftView>;
const Recipient = z.email().max(320);
const Recipients = z.array(Recipient).max(50);

// A draft as it will go out: who it is from (the sending account's login; null while no account can send),
// and the threading headers the outbox will write (electron/mail/send/compose.ts).
export const DraftDetail = DraftView.extend({
  from: z.string().nullable(),
  inReplyToHeader: z.string().nullable(),
  references: z.array(z.string()),
});
export type DraftDetail = z.infer<typeof DraftDetail>;

// The composer's opening (issue 29 §7): nothing is written in the draft yet, so it stays off the server's
// Drafts until its first save. A copy there would be synced back into the conversation answered and move it to
// the top of the list, and stay there after the empty draft was discarded.
const Unwritten = z.boolean().default(false);

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
          fromAddress: z.string().max(320).nullable().default(null),
          to: Recipients,
          cc: Recipients,
          bcc: Recipients.default([]),
          subject: z.string().max(998),
          body: z.string().max(100_000),
          unwritten: Unwritten,
        })
        .strict(),
      z
        .object({
          kind: z.enum(['reply', 'all', 'forward']),
          message: Id,
          to: z.array(Recipient).max(50),
          body: z.string().max(100_000),
          unwritten: Unwritten,
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
        fromAddress: z.string().max(320).nullable(),
        to: Recipients,
        cc: Recipients,
        bcc: Recipients,
        subject: z.string().max(998),
        body: z.string().max(100_000),
      })
      .strict(),
    response: DraftView,
  },
  'draft:attachStart': {
    // Begins attaching a file the user picked (<input type=file>, Electron's own dialog in the app): its bytes
    // follow in order by draft:attachChunk. Bigger than maxAttachmentBytes is invalid_request.
    request: z
      .object({
        draftId: Id,
        name: z.string().trim().min(1).max(255),
        contentType: z.string().max(255),
        size: z.number().int().nonnegative().max(maxAttachmentBytes),
      })
      .strict(),
    response: z.object({ uploadId: z.string().max(64) }),
  },
  'draft:attachChunk': {
    // The next bytes of an upload, base64, at `offset`; the chunk that completes the size answers the attachment.
    request: z
      .object({
        uploadId: z.string().max(64),
        offset: z.number().int().nonnegative().max(maxAttachmentBytes),
        data: z.base64().max(Math.ceil(attachmentChunkBytes / 3) * 4),
      })
      .strict(),
    response: z.object({ received: z.number().int().nonnegative(), attachment: DraftAttachment.nullable() }),
  },
  'draft:detach': {
    request: z.object({ draftId: Id, attachmentId: Id }).strict(),
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
