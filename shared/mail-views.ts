// Which folders the Inbox and All mail views hold (DESIGN §11), by their place: the main process lists and
// counts a view's threads by it (electron/mail/store/queries.ts), the folder pane adds up its unread.
import type { FolderPlace, MailView } from './contract/index.ts';

/** Inbox: ordinary folders and Inbox. All mail: everything but Trash and Spam. */
export function inView(view: MailView, place: FolderPlace | null): boolean {
  if (view === 'inbox') return place === null || place === 'inbox';
  return place !== 'trash' && place !== 'spam';
}
