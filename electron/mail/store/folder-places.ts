// Which special place a folder is (Inbox, Archive, Trash, Spam, Sent, Drafts), on any account: a server's
// special-use mailbox (RFC 6154), Skimmer's own Archive/Trash/Spam/Inbox for local mail (undo.ts), or a folder with the
// usual name (an imported Trash.mbox). Search's `in:` (search.ts) and the Inbox and All mail views
// (queries.ts, shared/mail-views.ts, DESIGN §11) read folders by these same rules, so `in:trash` and the Trash a view hides agree.
import type { FolderPlace } from '../../../shared/contract/index.ts';

export const placeFolders: Record<FolderPlace, { uses: string[]; sources: string[]; names: string[] }> = {
  // Skimmer's own Inbox: where "Not spam" puts imported mail (undo.ts).
  inbox: { uses: [], sources: ['skimmer:inbox'], names: ['Inbox'] },
  trash: {
    uses: ['\\Trash'],
    sources: ['skimmer:trash'],
    names: ['Trash', 'Deleted Items', 'Deleted Messages'],
  },
  spam: { uses: ['\\Junk'], sources: ['skimmer:spam'], names: ['Spam', 'Junk', 'Junk E-mail', 'Junk Email'] },
  sent: { uses: ['\\Sent'], sources: [], names: ['Sent', 'Sent Mail', 'Sent Items', 'Sent Messages'] },
  drafts: { uses: ['\\Drafts'], sources: [], names: ['Drafts', 'Draft'] },
  // On Gmail a message whose only mailbox is All Mail (\All) is archived.
  archive: { uses: ['\\Archive', '\\All'], sources: ['skimmer:archive'], names: ['Archive', 'Archives'] },
};

const order = Object.keys(placeFolders) as FolderPlace[];

export type FolderFacts = { name: string; source: string; specialUse: string | null; path: string | null };

/** The place a folder is, or null for an ordinary folder (whose mail the Inbox view lists). */
export function folderPlace(f: FolderFacts): FolderPlace | null {
  if (f.path === 'INBOX') return 'inbox';
  const name = f.name.toLowerCase();
  for (const place of order) {
    const { uses, sources } = placeFolders[place];
    if (f.specialUse !== null && uses.includes(f.specialUse)) return place;
    if (sources.includes(f.source)) return place;
  }
  // A server's special use wins over a name: a mailbox named "Archive" may be someone's own folder on it.
  for (const place of order) {
    if (placeFolders[place].names.some((n) => n.toLowerCase() === name)) return place;
  }
  return null;
}
