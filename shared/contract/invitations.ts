import { z } from 'zod';
import { OutboxItem } from './drafts.ts';
import { Id } from './fields.ts';

// Calendar invitations in the reader (issue 29 §2): the event card of a message's text/calendar part, its
// answer (the iTIP REPLY through the outbox, with its Undo) and the .ics for "Add to calendar". The assistant
// has no tool for these: answering is the person's own doing.

export const InvitationAnswer = z.enum(['ACCEPTED', 'TENTATIVE', 'DECLINED']);
export type InvitationAnswer = z.infer<typeof InvitationAnswer>;

// An instant (UTC), the zone the organiser wrote it in (null: floating or a date), and whether it is a whole day.
const When = z.object({ utc: z.string(), timeZone: z.string().nullable(), allDay: z.boolean() });
const Person = z.object({
  name: z.string().nullable(),
  address: z.string(),
  partstat: z.string().nullable(),
});
const Span = z.object({ start: When, end: When.nullable() });
const Change = z.discriminatedUnion('field', [
  z.object({ field: z.literal('time'), from: Span, to: Span }),
  z.object({ field: z.literal('location'), from: z.string().nullable(), to: z.string().nullable() }),
  z.object({ field: z.literal('title'), from: z.string(), to: z.string() }),
]);

export const InvitationCard = z.object({
  method: z.enum(['REQUEST', 'CANCEL']),
  uid: z.string(),
  sequence: z.number().int().nonnegative(),
  title: z.string(),
  start: When,
  end: When.nullable(),
  location: z.string().nullable(),
  organizer: Person.nullable(),
  // The first ten; `moreAttendees` counts the others.
  attendees: z.array(Person).max(10),
  moreAttendees: z.number().int().nonnegative(),
  repeats: z.string().nullable(),
  rrule: z.string().nullable(),
  // An earlier version of the same event was read: `changes` says what this one changed in it.
  update: z.boolean(),
  changes: z.array(Change),
  // Which of your addresses was invited (the one an answer goes from); null: none of yours.
  invited: z.string().nullable(),
  // Your answer while the message carrying it is queued (Undo can take it back), on its way or sent; its
  // sequence is the version answered (lower than `sequence` when the event changed since).
  answer: z
    .object({
      answer: InvitationAnswer,
      sequence: z.number().int().nonnegative(),
      outboxId: Id,
      state: z.enum(['queued', 'sending', 'sent']),
    })
    .nullable(),
});
export type InvitationCard = z.infer<typeof InvitationCard>;

export const InvitationView = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('invitation'), card: InvitationCard }),
  // A calendar part Skimmer will not read (malformed, too large, unknown zone): one sentence for the card.
  z.object({ kind: z.literal('unreadable'), sentence: z.string() }),
  z.object({ kind: z.literal('none') }),
]);
export type InvitationView = z.infer<typeof InvitationView>;

export const invitationChannels = {
  'invitation:get': {
    request: z.object({ message: Id }).strict(),
    response: InvitationView,
  },
  'invitation:respond': {
    // The REPLY from the invited address to the organiser, queued in the outbox: its id is the Undo's.
    request: z.object({ message: Id, answer: InvitationAnswer }).strict(),
    response: OutboxItem,
  },
  'invitation:ics': {
    // The calendar part as a file (at most 256 KB, the bound readInvitation reads), base64.
    request: z.object({ message: Id }).strict(),
    response: z.object({ name: z.string(), data: z.base64() }),
  },
} as const;
