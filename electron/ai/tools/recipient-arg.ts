// A recipient in a mail tool's arguments (send_mail, create_draft): exactly one valid bare address, by the rule
// every address Skimmer accepts follows (shared/mail-address.ts). Kept here, beside the tools' schemas, so the
// renderer's address code carries no zod.
import { z } from 'zod';
import { parseMailbox } from '../../../shared/mail-address.ts';

/** A recipient in a tool's arguments: exactly one valid bare address. */
export const MailAddress = z
  .string()
  .trim()
  .max(320)
  .refine((a) => parseMailbox(a) !== null, { message: 'Give one mail address, like name@example.com.' })
  .describe('One mail address, like name@example.com');
