// "Draft reply" (issue 17, DESIGN §10 "Drafted replies"): a reply the model writes from the thread, checked as a
// grounded answer is, stored as a local draft (not on the server until the user saves it).
import { z } from 'zod';
import { DraftDetail } from './drafts.ts';
import { Id, ModelRef } from './fields.ts';

// An amount, number, date or time of the draft found in no message of the thread (shared/compose/thread-facts.ts).
const UnverifiedFact = z.object({ text: z.string(), reason: z.string() });

export const DraftedReply = z.object({
  draft: DraftDetail,
  // The thread answered, which a citation chip opens at its message.
  threadId: Id,
  // False: an uncited draft.
  cited: z.boolean(),
  // Each message of the thread the reply cites; its `[id]` marks are out of the draft's body.
  citations: z.array(z.object({ id: z.string(), messageId: Id, title: z.string() })),
  unverified: z.array(UnverifiedFact),
  // The thread's facts as normalised keys, so the composer checks the body again as the user edits it.
  known: z.array(z.string()),
  // What was left out to stay within the bounds (DESIGN §10); null when nothing.
  note: z.string().nullable(),
});
export type DraftedReply = z.infer<typeof DraftedReply>;

// What the composer shows beside a drafted reply, kept with the draft (migration 0033) so that reopening it,
// after a reload or from Drafts, shows its citations and checks its body again.
export const DraftAssist = DraftedReply.omit({ draft: true, unverified: true });
export type DraftAssist = z.infer<typeof DraftAssist>;

export const draftReplyChannels = {
  'draft:aiReply': {
    // Streams draft_reply_done or error; Stop is run:cancel. The model defaults to the summary task's
    // (DESIGN §5, "Choosing a model"); recipients are the reply's (all: reply all), from the headers only.
    request: z
      .object({
        message: Id,
        all: z.boolean().default(false),
        model: ModelRef.optional(),
        instructions: z.string().trim().max(2000).optional(),
      })
      .strict(),
    response: z.object({ streamId: z.string() }),
  },
  'draft:assist': {
    // The drafted reply's citations and facts for a draft the model wrote; null for any other draft.
    request: z.object({ id: Id }).strict(),
    response: DraftAssist.nullable(),
  },
} as const;
