import { z } from 'zod';
import { EpochMs, Id } from './fields.ts';

// Unsubscribing from a message's list (issue 29 §3): what the reader's button offers, and doing it after the
// person confirmed where it goes. The assistant has no tool for it.
const Method = z.enum(['one-click', 'mailto', 'http']);

// Where the chosen way goes, as the confirmation names it: a request's host, an email's addresses, a page's URL.
const UnsubscribeTarget = z.discriminatedUnion('method', [
  z.object({ method: z.literal('one-click'), host: z.string().max(300) }),
  z.object({ method: z.literal('mailto'), to: z.array(z.string().max(320)).max(3) }),
  z.object({ method: z.literal('http'), host: z.string().max(300), url: z.string().max(2048) }),
]);

const UnsubscribeOptions = z.object({
  // The sender, lower-cased: what an unsubscribe is kept on, so other messages of it say so too.
  sender: z.string().max(320),
  // null: the message offers no way Skimmer uses (no button).
  target: UnsubscribeTarget.nullable(),
  unsubscribed: z.object({ at: EpochMs, method: Method }).nullable(),
});
export type UnsubscribeOptions = z.infer<typeof UnsubscribeOptions>;

export const unsubscribeChannels = {
  'unsubscribe:options': {
    request: z.object({ message: Id }).strict(),
    response: UnsubscribeOptions,
  },
  'unsubscribe:run': {
    // The way `unsubscribe:options` named for this message, after the person confirmed it. A one-click POST is
    // made before this answers; an email waits in the outbox (`outboxId`, undoable there); a page (`url`) is the
    // renderer's to open.
    request: z.object({ message: Id }).strict(),
    response: z.object({
      method: Method,
      at: EpochMs,
      outboxId: Id.nullable(),
      url: z.string().max(2048).nullable(),
    }),
  },
} as const;
