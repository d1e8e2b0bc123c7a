// Whether a folder, named as a person or a model names it, is a Trash or a Spam folder on any account: by the
// server's special use (a `\Trash` mailbox called "Papierkorb"), Skimmer's own Trash and Spam, or the usual names
// (folder-places.ts). A move there takes mail out of sight as `trash` does, so the mail tools gate it as a delete
// (issue 27: an "Always" grant for moves let an agent move the whole Inbox to Trash without a card).
import type { Db } from '../../db/open.ts';
import { folderPlace } from './folder-places.ts';

type Row = { name: string; source: string; special_use: string | null; path: string | null };

export function prepareTrashTarget(db: Db): (folderName: string) => boolean {
  // The same match moveToFolder makes (undo.ts): the name, case-insensitively, on any account.
  const named = db.prepare<[string], Row>(
    `SELECT f.name, f.source, i.special_use, i.path FROM folders f
       LEFT JOIN imap_folders i ON i.folder_id = f.id WHERE f.name = ? COLLATE NOCASE`,
  );
  const hides = (place: string | null) => place === 'trash' || place === 'spam';
  return (folderName) => {
    const name = folderName.trim();
    // The name alone is enough: a folder called "Junk" that is not one yet may be made one by a server.
    if (hides(folderPlace({ name, source: '', specialUse: null, path: null }))) return true;
    return named
      .all(name)
      .some((f) =>
        hides(folderPlace({ name: f.name, source: f.source, specialUse: f.special_use, path: f.path })),
      );
  };
}
