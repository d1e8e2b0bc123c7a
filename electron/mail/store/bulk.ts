// Actions on a selection of conversations (issue 16, DESIGN §11 "Several at once"): the selection is resolved
// to message ids and changed in one transaction, through the same undoable writes as a single action
// (undo.ts), so a batch is one Undo entry and every message gets the write-back op a single action queues.
import type { BulkAction, Folder, ThreadSelection } from '../../../shared/contract/index.ts';
import type { Db } from '../../db/open.ts';
import { prepareSelection } from './selection.ts';
import { prepareTrash } from './trash.ts';
import { describeMoveToInbox, type prepareMailActions } from './undo.ts';

type MailActions = ReturnType<typeof prepareMailActions>;

export function prepareBulk(db: Db, actions: MailActions, folders: () => Folder[]) {
  const resolve = prepareSelection(db, folders);
  const trash = prepareTrash(db);

  const apply = db.transaction((selection: ThreadSelection, action: BulkAction) => {
    const picked = resolve(selection);
    const ids = (rows: readonly { id: number }[]) => rows.map((r) => r.id);
    const changed = (): number => {
      switch (action.kind) {
        case 'archive':
        case 'trash':
        case 'spam':
          return actions.moveToSpecial(ids(picked.leaving), action.kind).changed;
        case 'notSpam': {
          // Only what is in Spam goes back (an imported message to the folder Spam took it from, undo.ts); the
          // conversation's other messages stay where they are.
          const spam = picked.leaving.filter((r) => picked.place(r.folder_id) === 'spam');
          return actions.notSpam(ids(spam)).changed;
        }
        case 'inbox': {
          // What is archived, in Trash or in Spam comes back. Mail in an ordinary folder is in the Inbox view
          // already (DESIGN §11), and your own stays in Sent and Drafts.
          const away = picked.leaving.filter((r) => {
            const place = picked.place(r.folder_id);
            return place === 'archive' || place === 'trash' || place === 'spam';
          });
          return actions.moveToSpecial(ids(away), 'inbox', describeMoveToInbox).changed;
        }
        case 'move':
          return actions.moveToFolderId(ids(picked.leaving), action.folderId).changed;
        case 'read':
          return actions.markRead(ids(picked.all), action.read).changed;
        case 'star':
          return actions.star(ids(picked.all), action.starred).changed;
        case 'restore':
        case 'deleteForever': {
          // Only what is in Trash: the conversation's other messages stay where they are.
          const inTrash = ids(picked.leaving.filter((r) => picked.place(r.folder_id) === 'trash'));
          return action.kind === 'restore'
            ? actions.restore(inTrash).changed
            : trash.deleteForever(inTrash).changed;
        }
        case 'label': {
          const done = actions.label(ids(picked.all), action.add, action.remove);
          return done.added + done.removed;
        }
      }
    };
    return { threads: picked.threads.length, changed: changed() };
  });

  return {
    /** Changes every conversation of the selection; one Undo entry (none when nothing changed). */
    apply,
  };
}
