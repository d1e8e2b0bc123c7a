// Grounded answers over a thread, messages and documents (DESIGN §10).
import { z } from 'zod';
import { Id, ModelRef } from './fields.ts';

// A question about mail or documents, in the user's words.
const Question = z.string().trim().min(1).max(2000);

// A grounded answer as the page shows it: the text with inline [id] marks, and each cited source with what
// it is (a message of the thread, or a document page) so a chip can open it. `cited: false` is an uncited
// draft. Citations are checked to exist, not checked to be true (DESIGN §10).
export const GroundedView = z.object({
  answer: z.string(),
  cited: z.boolean(),
  citations: z.array(
    z.object({
      id: z.string(),
      title: z.string(),
      messageId: Id.nullable(),
      documentId: Id.nullable(),
      location: z.string().nullable(),
    }),
  ),
  cached: z.boolean(),
  // What Skimmer chose to leave out to stay within the bounds (DESIGN §10), said to the user; null when nothing.
  note: z.string().nullable(),
});
export type GroundedView = z.infer<typeof GroundedView>;

export const summaryChannels = {
  'summary:thread': {
    // Streams summary_done or error; Stop is run:cancel. Cached per thread version, model and question.
    request: z
      .object({
        threadId: Id,
        model: ModelRef,
        question: Question.optional(),
        refresh: z.boolean().default(false),
      })
      .strict(),
    response: z.object({ streamId: z.string() }),
  },
  'summary:stored': {
    // The newest summary stored for the thread as it is now, by any model, or null; never contacts a service, so
    // reopening a thread shows its summary again without asking (DESIGN §10).
    request: z.object({ threadId: Id }).strict(),
    response: z.object({ model: z.string(), result: GroundedView }).nullable(),
  },
  'summary:ask': {
    // A question over this thread, a selection of messages and/or documents, named by id: Skimmer loads the
    // text (DESIGN §10). Streams summary_done or error like summary:thread; Stop is run:cancel. Cached per
    // model, question, message ids (a thread's as it is now) and document ids; `refresh` asks again.
    request: z
      .object({
        model: ModelRef,
        question: Question,
        threadId: Id.optional(),
        messageIds: z.array(Id).min(1).max(50).optional(),
        documentIds: z.array(Id).min(1).max(20).optional(),
        refresh: z.boolean().default(false),
      })
      .strict()
      .refine((r) => r.threadId !== undefined || r.messageIds !== undefined || r.documentIds !== undefined, {
        message: 'Name a thread, messages or documents to ask about.',
      }),
    response: z.object({ streamId: z.string() }),
  },
} as const;
