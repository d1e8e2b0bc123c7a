import { z } from 'zod';
import { labelColours } from './limits.ts';

// Labels as the folder list shows them (issue 29 §4), with the colour the person picked from the palette
// (limits.ts, apart from the schemas so the renderer's first screen loads no zod).
export const LabelColour = z.enum(labelColours);
export type LabelColour = z.infer<typeof LabelColour>;

export const LabelOverview = z.object({
  id: z.number().int(),
  name: z.string(),
  colour: LabelColour.nullable(),
  unread: z.number().int(),
  total: z.number().int(),
  // The conversations it is on, for Delete…'s question.
  threads: z.number().int(),
});
export type LabelOverview = z.infer<typeof LabelOverview>;

export const labelChannels = {
  'label:overview': {
    request: z.object({}).strict(),
    response: z.array(LabelOverview),
  },
  'label:setColour': {
    // null takes the colour away (the chip is drawn in the theme's neutral colour).
    request: z.object({ id: z.number().int().positive(), colour: LabelColour.nullable() }).strict(),
    response: z.object({ ok: z.literal(true) }),
  },
  // Renaming and deleting change the label on every message that carries it, on the server too (IMAP keywords,
  // Gmail's X-GM-LABELS), and are each one Undo entry (mail:undo {id}). Onto another label's name, a rename merges.
  'label:rename': {
    request: z.object({ id: z.number().int().positive(), name: z.string().max(200) }).strict(),
    response: z.object({ id: z.number().int(), merged: z.boolean(), changed: z.number().int() }),
  },
  'label:delete': {
    request: z.object({ id: z.number().int().positive() }).strict(),
    response: z.object({ changed: z.number().int() }),
  },
  'label:ofThreads': {
    // The labels on each of these conversations (any of their messages), for the chips on list rows.
    request: z.object({ threads: z.array(z.number().int().positive()).min(1).max(500) }).strict(),
    response: z.array(
      z.object({
        threadId: z.number().int(),
        labels: z.array(z.object({ name: z.string(), colour: LabelColour.nullable() })),
      }),
    ),
  },
} as const;
