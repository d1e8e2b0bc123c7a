import { z } from 'zod';
import { Id } from './fields.ts';

// Folders the person makes, renames and deletes (issue 29 §7), written back over IMAP for an account's folders.
// Names are checked in the main process (mail/store/folders-admin.ts: one level, no special folder's name); the
// bound here only keeps a request small.
const FolderName = z.string().max(200);

export const folderChannels = {
  'folder:create': {
    // accountId null: a folder on this computer, for imported mail.
    request: z.object({ accountId: Id.nullable(), name: FolderName }).strict(),
    response: z.object({ id: Id }),
  },
  'folder:rename': {
    request: z.object({ id: Id, name: FolderName }).strict(),
    response: z.object({ changed: z.boolean() }),
  },
  'folder:delete': {
    // Only an empty folder: one with mail in it is refused with a sentence (move its mail out first).
    request: z.object({ id: Id }).strict(),
    response: z.object({ ok: z.literal(true) }),
  },
} as const;
