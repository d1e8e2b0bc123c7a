// Mail in the database: folders, threads, messages, search, import, the undoable writes.
import { z } from 'zod';
import { EpochMs, Id, PathArg, SearchLimit, SearchQuery } from './fields.ts';

export const Address = z.object({ name: z.string(), address: z.string() });
export type Address = z.infer<typeof Address>;

// The special place a folder is (electron/mail/store/folder-places.ts); null for an ordinary folder.
export const FolderPlace = z.enum(['inbox', 'archive', 'trash', 'spam', 'sent', 'drafts']);
export type FolderPlace = z.infer<typeof FolderPlace>;

// The views beside the folders, across every account and import (DESIGN §11): Inbox lists what is in no special
// place but Inbox (not archived, trashed, spam, sent or a draft); Starred the starred conversations anywhere but
// Trash and Spam; Drafts, Sent, Archive, Spam and Trash every folder of that place; All mail everything but
// Trash and Spam.
export const MailView = z.enum(['inbox', 'starred', 'drafts', 'sent', 'archive', 'spam', 'trash', 'all']);
export type MailView = z.infer<typeof MailView>;

// Whose folder it is: an IMAP account's (its name), or null for mail on this computer (imported, and
// Skimmer's own Archive and Trash for it).
const FolderAccount = z.object({ id: Id, name: z.string() });

export const Folder = z.object({
  id: Id,
  name: z.string(),
  source: z.string(),
  place: FolderPlace.nullable(),
  account: FolderAccount.nullable(),
  total: z.number().int().nonnegative(),
  unread: z.number().int().nonnegative(),
});
export type Folder = z.infer<typeof Folder>;

export const ThreadSummary = z.object({
  id: Id,
  subject: z.string(),
  participants: z.array(z.string()),
  lastDate: EpochMs,
  count: z.number().int().positive(),
  unread: z.number().int().nonnegative(),
  snippet: z.string(),
  hasAttachments: z.boolean(),
  // Some message of the thread is starred (\Flagged on its server).
  starred: z.boolean(),
});
export type ThreadSummary = z.infer<typeof ThreadSummary>;

export const Attachment = z.object({
  name: z.string(),
  contentType: z.string(),
  size: z.number().int().nonnegative(),
  // Its Content-ID without the angle brackets, when it has one: what an HTML body's `cid:` image names (issue 29
  // §1). Messages stored before it was kept have none, and their inline images stay unshown.
  contentId: z.string().max(255).optional(),
});
export type Attachment = z.infer<typeof Attachment>;

// What Skimmer saw in a message before you trust its sender (DESIGN §11, "Warnings"): computed when the message
// is stored, shown as a banner above its body, given to a model inside its untrusted block.
export const WarningKind = z.enum([
  'lookalike',
  'authentication',
  'reply-to',
  'hidden-text',
  'link-mismatch',
]);
export type WarningKind = z.infer<typeof WarningKind>;
export const MessageWarning = z.object({ kind: WarningKind, text: z.string() });
export type MessageWarning = z.infer<typeof MessageWarning>;

export const MessageView = z.object({
  id: Id,
  messageId: z.string(),
  threadId: Id,
  folderId: Id,
  subject: z.string(),
  from: Address,
  to: z.array(Address),
  cc: z.array(Address),
  date: EpochMs,
  text: z.string(),
  // The original HTML part, unsanitized: the renderer sanitizes it and shows it only in a sandboxed frame.
  html: z.string().nullable(),
  attachments: z.array(Attachment),
  unread: z.boolean(),
  starred: z.boolean(),
  // A change to this message that its mail server refused (write-back); `mail:retrySync` tries it again.
  syncError: z.string().nullable(),
  // Empty for a clean message from a sender you know.
  warnings: z.array(MessageWarning),
});
export type MessageView = z.infer<typeof MessageView>;

export const SearchHit = z.object({
  id: Id,
  messageId: z.string(),
  threadId: Id,
  subject: z.string(),
  from: z.string(),
  date: EpochMs,
  snippet: z.string(),
});
export type SearchHit = z.infer<typeof SearchHit>;

export const ImportSummary = z.object({
  imported: z.number().int().nonnegative(),
  duplicates: z.number().int().nonnegative(),
  failed: z.array(z.object({ source: z.string(), reason: z.string() })),
});
export type ImportSummary = z.infer<typeof ImportSummary>;

export const UndoView = z.object({ id: Id, createdAt: EpochMs, description: z.string() });
export type UndoView = z.infer<typeof UndoView>;

// The messages one archive, trash, read-flag or star change applies to.
const MessageIds = z.array(Id).min(1).max(1000);

export const mailChannels = {
  'mail:folders': {
    request: z.object({}).strict(),
    response: z.array(Folder),
  },
  'mail:threads': {
    request: z
      .object({
        folderId: Id.nullable().default(null),
        // Which view a null folderId lists; All mail when left out, as before there was an Inbox.
        view: MailView.default('all'),
        offset: z.number().int().nonnegative().max(10_000_000).default(0),
        limit: z.number().int().min(1).max(500).default(100),
      })
      .strict(),
    response: z.object({ total: z.number().int().nonnegative(), threads: z.array(ThreadSummary) }),
  },
  'mail:thread': {
    request: z.object({ threadId: Id }).strict(),
    response: z.object({ id: Id, subject: z.string(), messages: z.array(MessageView) }),
  },
  'mail:search': {
    request: z
      .object({
        query: SearchQuery,
        limit: SearchLimit,
        // Newest first, as Gmail and Thunderbird list results; relevance (FTS5's bm25) when asked.
        order: z.enum(['newest', 'relevance']).default('newest'),
      })
      .strict(),
    response: z.array(SearchHit),
  },
  'mail:import': {
    // Paths are the user's own choice of files on this machine; `demo` imports the bundled demo mailbox.
    request: z.union([
      z.object({ paths: z.array(PathArg).min(1).max(100) }).strict(),
      z.object({ demo: z.literal(true) }).strict(),
    ]),
    response: z.object({ streamId: z.string() }),
  },
  'mail:archive': {
    // Moves to the account's Archive (its server's, for a synced account); undoable; queued for the server.
    request: z.object({ ids: MessageIds }).strict(),
    response: z.object({ changed: z.number().int().nonnegative() }),
  },
  'mail:trash': {
    request: z.object({ ids: MessageIds }).strict(),
    response: z.object({ changed: z.number().int().nonnegative() }),
  },
  'mail:retrySync': {
    // Queues the refused changes of a message again; the background sync sends them.
    request: z.object({ id: Id }).strict(),
    response: z.object({ queued: z.number().int().nonnegative() }),
  },
  'mail:markRead': {
    request: z.object({ ids: MessageIds, read: z.boolean() }).strict(),
    response: z.object({ changed: z.number().int().nonnegative() }),
  },
  'mail:star': {
    // Stars or unstars (\Flagged on the server, queued); undoable.
    request: z.object({ ids: MessageIds, starred: z.boolean() }).strict(),
    response: z.object({ changed: z.number().int().nonnegative() }),
  },
  'mail:contacts': {
    // The people in your mailbox whose name or address starts with `prefix` (a word of it), most written-with
    // first: the composer's completion of To, Cc and Bcc.
    request: z
      .object({
        prefix: z.string().trim().min(1).max(320),
        limit: z.number().int().min(1).max(50).default(8),
      })
      .strict(),
    response: z.array(Address),
  },
  'mail:undoable': {
    // The newest actions that can still be undone, newest first.
    request: z.object({ limit: z.number().int().min(1).max(50).default(5) }).strict(),
    response: z.array(UndoView),
  },
  'mail:undo': {
    // Undoes the newest `count` actions not yet undone, or exactly the one with this `id` (from mail:undoable).
    request: z.union([
      z.object({ count: z.number().int().min(1).max(50).default(1) }).strict(),
      z.object({ id: Id }).strict(),
    ]),
    response: z.object({ undone: z.array(UndoView) }),
  },
} as const;
