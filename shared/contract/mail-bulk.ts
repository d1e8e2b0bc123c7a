// Acting on several conversations at once (issue 16, DESIGN §11 "Several at once"): the thread list's
// selection, sent as thread ids or as "every thread of this folder, view or search", which the main process
// resolves to message ids in the one transaction that changes them, so a selection of 1,000 conversations
// (several thousand messages) is one request, one Undo entry and one write-back op per message and change.
import { z } from 'zod';
import { Id, SearchQuery } from './fields.ts';
import { maxSelectedThreads } from './limits.ts';
import { MailView } from './mail.ts';

// Where the selection was made: which of a conversation's messages a move takes. In a folder, or a view
// other than All mail, the conversation leaves it (its messages there move, the user's replies in Sent
// stay); in All mail or a search the whole conversation moves.
export const SelectionScope = z.union([
  z.object({ folderId: Id }).strict(),
  z.object({ view: MailView }).strict(),
  z.object({ query: SearchQuery }).strict(),
]);
export type SelectionScope = z.infer<typeof SelectionScope>;

// SECURITY: bounded on both sides: at most 10,000 ids here, and a whole scope is counted in the main process
// and refused past the same bound, so one request cannot hold the database's one writer for long.
export const ThreadSelection = z
  .object({
    scope: SelectionScope,
    // These conversations; left out: every conversation of the scope ("Select all N in this view").
    threads: z.array(Id).min(1).max(maxSelectedThreads).optional(),
  })
  .strict();
export type ThreadSelection = z.infer<typeof ThreadSelection>;

const LabelName = z.string().trim().min(1).max(64);

export const BulkAction = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('archive') }).strict(),
  z.object({ kind: z.literal('trash') }).strict(),
  // To the account's Junk (\Junk), or a local Spam folder for imported mail.
  z.object({ kind: z.literal('spam') }).strict(),
  // The conversation's messages in Spam go back to the Inbox.
  z.object({ kind: z.literal('notSpam') }).strict(),
  // Move… to the Inbox: the conversation's messages in the list that are archived, in Trash or in Spam go to their
  // account's Inbox (a local Inbox for imported mail), as Gmail's "Move to Inbox" brings a conversation back.
  z.object({ kind: z.literal('inbox') }).strict(),
  z.object({ kind: z.literal('read'), read: z.boolean() }).strict(),
  z.object({ kind: z.literal('star'), starred: z.boolean() }).strict(),
  z
    .object({
      kind: z.literal('label'),
      add: z.array(LabelName).max(50).default([]),
      remove: z.array(LabelName).max(50).default([]),
    })
    .strict(),
  z.object({ kind: z.literal('move'), folderId: Id }).strict(),
  // Trash (issue 29 §7): the conversation's messages in Trash go back where they came from (else the Inbox).
  z.object({ kind: z.literal('restore') }).strict(),
  // SECURITY: for good, not undoable: only messages in Trash, and the renderer asks first. Empty Trash is this
  // on every conversation of the Trash view. No assistant tool reaches it (electron/ai/tools).
  z.object({ kind: z.literal('deleteForever') }).strict(),
]);
export type BulkAction = z.infer<typeof BulkAction>;

// A label as the picker shows it for a selection: on how many of the selected conversations it is.
export const SelectionLabel = z.object({
  name: z.string(),
  threads: z.number().int().nonnegative(),
});
export type SelectionLabel = z.infer<typeof SelectionLabel>;

export const mailBulkChannels = {
  'mail:bulk': {
    // Undoable as one entry (mail:undo {id}); queued for the server message by message, as single actions are.
    request: z.object({ selection: ThreadSelection, action: BulkAction }).strict(),
    response: z.object({
      threads: z.number().int().nonnegative(),
      changed: z.number().int().nonnegative(),
    }),
  },
  'mail:selectionLabels': {
    // Every label, with the number of selected conversations carrying it (the picker's all/some/none).
    request: z.object({ selection: ThreadSelection }).strict(),
    response: z.object({ threads: z.number().int().nonnegative(), labels: z.array(SelectionLabel) }),
  },
} as const;
