// The window's title (issue 28): what the mail view shows and its unread count, "Inbox (12) — Skimmer", as Gmail
// and Thunderbird put it in the title so a taskbar or a tab says there is mail. A view other than the Inbox, and a
// folder with nothing unread, show their name alone; Chat is "Chat — Skimmer". Folder names come from the mail
// server: direction controls are taken out (display-text.ts), and a title is text. Pure; tested in
// window-title.test.ts.
import type { Folder, MailView } from '../../../shared/contract/index.ts';
import { inView } from '../../../shared/mail-views.ts';
import { displayText } from '../mail/display-text.ts';

const viewNames: Record<MailView, string> = {
  inbox: 'Inbox',
  starred: 'Starred',
  drafts: 'Drafts',
  sent: 'Sent',
  archive: 'Archive',
  spam: 'Spam',
  trash: 'Trash',
  all: 'All mail',
};

export function windowTitle(s: {
  view: 'mail' | 'chat';
  mailView: MailView;
  folderId: number | null;
  folders: readonly Pick<Folder, 'id' | 'name' | 'place' | 'unread'>[];
}): string {
  if (s.view === 'chat') return 'Chat — Skimmer';
  const folder = s.folderId === null ? null : s.folders.find((f) => f.id === s.folderId);
  const name = folder ? displayText(folder.name) : viewNames[s.mailView];
  const unread = folder
    ? folder.unread
    : s.mailView === 'inbox'
      ? s.folders.reduce((sum, f) => sum + (inView('inbox', f.place) ? f.unread : 0), 0)
      : 0;
  return unread > 0 ? `${name} (${unread.toLocaleString()}) — Skimmer` : `${name} — Skimmer`;
}
