// Which messages of a conversation Archive and Trash move. Viewing a folder (or the Inbox, its folders), the
// conversation leaves it: its messages there move, and its other messages (the user's replies in Sent) stay where they are.
// In All mail or a search there is no folder to leave, so the whole conversation moves. Pure; tested in
// move-targets.test.ts.
import type { Folder, MailView, MessageView } from '../../../shared/contract/index.ts';

// The contract's bound on ids per call.
const maxMoveIds = 1000;

export function moveTargets(
  messages: readonly Pick<MessageView, 'id' | 'folderId'>[],
  leaving: readonly number[] | null,
): number[] {
  const moving =
    leaving === null ? messages : messages.filter((message) => leaving.includes(message.folderId));
  return moving.map((message) => message.id).slice(0, maxMoveIds);
}

/**
 * The folders a conversation leaves when it is archived or trashed from a view (null: all of it moves), as
 * Gmail's views behave (issue 16). Inbox: its folders. A place's own view (Archive, Spam, Trash, Drafts): that
 * place. Starred and Sent are not places one leaves by archiving: Archive takes the conversation out of the
 * Inbox and it stays listed (still starred, still sent), while Trash takes all of it. All mail: all of it.
 */
export function leavingFolders(
  view: MailView,
  kind: 'archive' | 'trash',
  folders: readonly Pick<Folder, 'id' | 'place'>[],
): number[] | null {
  const of = (keep: (place: Folder['place']) => boolean) =>
    folders.filter((f) => keep(f.place)).map((f) => f.id);
  const inbox = () => of((place) => place === null || place === 'inbox');
  switch (view) {
    case 'inbox':
      return inbox();
    case 'all':
      return null;
    case 'starred':
    case 'sent':
      return kind === 'archive' ? inbox() : null;
    default:
      return of((place) => place === view);
  }
}
