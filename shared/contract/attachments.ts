import { z } from 'zod';
import { Id } from './fields.ts';
import { attachmentReadBytes } from './limits.ts';

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
        index: z.number().int().nonnegative().max(10_000),
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
} as const;
