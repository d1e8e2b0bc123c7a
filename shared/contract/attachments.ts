import { z } from 'zod';
import { Id } from './fields.ts';
import { attachmentReadBytes } from './limits.ts';

const AttachmentIndex = z.number().int().nonnegative().max(10_000);

// A message's attachment as the reader lists it: its place in the message's list (from 0), name, type, size.
const AttachmentItem = z.object({
  index: z.number().int().nonnegative(),
  name: z.string(),
  contentType: z.string(),
  size: z.number().int().nonnegative(),
});

// The bytes of attachments (issue 29 §1), read where the message lives (its imported file, or its IMAP server by
// UID) when asked, never stored; a range at a time, so no answer carries a whole 25 MB file.
export const attachmentChannels = {
  'attachment:list': {
    request: z.object({ message: Id }).strict(),
    response: z.array(AttachmentItem),
  },
  'attachment:read': {
    // `length` bytes from `offset` of attachment `index`, base64; `total` is its real size (the stored size is
    // the import's estimate), so the page knows when it has it all.
    request: z
      .object({
        message: Id,
        index: AttachmentIndex,
        offset: z.number().int().nonnegative(),
        length: z.number().int().positive().max(attachmentReadBytes),
      })
      .strict(),
    response: z.object({
      name: z.string(),
      contentType: z.string(),
      total: z.number().int().nonnegative(),
      offset: z.number().int().nonnegative(),
      data: z.base64(),
    }),
  },
  // The desktop app's Save, Save all and Open (issue 29 §1): the system's save dialog (a file), its folder dialog
  // (every attachment, each under a safe and distinct name), or the system's own application for the file, written
  // first into a private temporary folder. `available` is false where there is no desktop shell (browser mode
  // downloads from the server's route instead, electron/web/attachment-download.ts); `saved` null when cancelled.
  'attachment:save': {
    request: z.object({ message: Id, index: AttachmentIndex }).strict(),
    response: z.object({ available: z.boolean(), saved: z.string().nullable() }),
  },
  'attachment:save-all': {
    request: z.object({ message: Id }).strict(),
    response: z.object({ available: z.boolean(), folder: z.string().nullable(), saved: z.number().int() }),
  },
  // SECURITY: a program (shared/attachment-risk.ts) is opened only once the person has read what it is: without
  // `confirmed` the answer is the warning and nothing is written or opened.
  'attachment:open': {
    request: z.object({ message: Id, index: AttachmentIndex, confirmed: z.boolean() }).strict(),
    response: z.object({ available: z.boolean(), opened: z.boolean(), warning: z.string().nullable() }),
  },
} as const;
