// Which folders each view beside the folders holds (DESIGN §11), by their place: the main process lists and
// counts a view's threads by it (electron/mail/store/queries.ts), the folder pane adds up its unread.
import type { FolderPlace, MailView } from './contract/index.ts';

/**
 * Inbox: ordinary folders and Inbox. Starred and All mail: everything but Trash and Spam (Starred keeps the
 * starred conversations of those folders). A place's view: the folders of that place.
 */
export function inView(view: MailView, place: FolderPlace | null): boolean {
  if (view === 'inbox') return place === null || place === 'inbox';
  if (view === 'all' || view === 'starred') return place !== 'trash' && place !== 'spam';
  return place === view;
}
