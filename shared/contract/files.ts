// Choosing files on this machine (DESIGN §13, "Choosing files"): the system's open dialog in the desktop app
// (`files:pick`), and in browser mode a listing of one of the user's own folders at a time (`files:browse`),
// which the page shows as its own file browser. Neither reads a file; what the user chooses goes to
// `mail:import` or `documents:import`, which open it under the file rule.
import { z } from 'zod';
import { PathArg } from './fields.ts';
import { maxBrowseEntries } from './limits.ts';

// What the files are chosen for: mail (.mbox, .eml, Maildir folders) or documents (.txt, .md, .pdf, .docx).
export const PickPurpose = z.enum(['mail', 'documents']);
export type PickPurpose = z.infer<typeof PickPurpose>;

// What a listed entry looks like to an import, from its name and (for a folder) its cur/new subfolders. A hint
// for the eye: the import decides by what it finds when it reads.
export const EntryLooks = z.enum(['mbox', 'eml', 'maildir', 'document']);
export type EntryLooks = z.infer<typeof EntryLooks>;

export const BrowseEntry = z.object({
  name: z.string(),
  // The real path (a link is listed as where it leads, and only when that is inside the user's places).
  path: z.string(),
  kind: z.enum(['file', 'folder']),
  // Bytes, for a file; null for a folder.
  size: z.number().int().nonnegative().nullable(),
  looks: EntryLooks.nullable(),
});
export type BrowseEntry = z.infer<typeof BrowseEntry>;

const NamedPath = z.object({ name: z.string(), path: z.string() });

export const fileChannels = {
  'files:pick': {
    // The system's open dialog (desktop only: `available` is false in browser mode, where the page shows its own
    // browser). Cancelled, it answers no paths.
    request: z.object({ purpose: PickPurpose, kind: z.enum(['files', 'folders']).default('files') }).strict(),
    response: z.object({ available: z.boolean(), paths: z.array(z.string()).max(1000) }),
  },
  'files:browse': {
    // One folder's entries, folders first, then files, each by name; without `dir` the home folder. `filter`
    // keeps the names that contain it (any case), before the bound, so a big folder's entry can still be found;
    // `hidden` lists names starting with a dot too (a Thunderbird profile lives in ~/.thunderbird).
    request: z
      .object({
        dir: PathArg.optional(),
        filter: z.string().max(200).optional(),
        hidden: z.boolean().optional(),
      })
      .strict(),
    response: z.object({
      // The real path of the folder listed.
      dir: z.string(),
      // From the place it is in (Home, …) down to it.
      crumbs: z.array(NamedPath),
      // The folder above, or null at the top of a place.
      up: z.string().nullable(),
      // The user's places: home, the temporary folder, removable drives.
      places: z.array(NamedPath),
      entries: z.array(BrowseEntry).max(maxBrowseEntries),
      // How many entries matched; more than `entries.length` when the list was cut.
      matched: z.number().int().nonnegative(),
      // Names starting with a dot left out (none with `hidden`), so an "empty" home folder can say why.
      hidden: z.number().int().nonnegative(),
      // The folder had more entries than Skimmer reads for a listing; `matched` counts the ones read.
      scanCut: z.boolean(),
    }),
  },
} as const;
