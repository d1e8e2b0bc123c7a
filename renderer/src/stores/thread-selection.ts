// The rules of the thread list's selection (DESIGN §12, "Several at once"), pure: tested in
// thread-selection.test.ts. A selection is a set of thread ids, or "every conversation of this view"; a
// Shift-click takes the loaded rows between the last row toggled and the clicked one; the header checkbox
// shows whether all, some or none of the loaded rows are selected.
import type {
  BulkAction,
  Folder,
  FolderPlace,
  MailView,
  SelectionScope,
  ThreadSelection,
} from '../../../shared/contract/index.ts';
import { maxSelectedThreads } from '../../../shared/contract/limits.ts';
import { inView } from '../../../shared/mail-views.ts';
import { loadedThreads, type Pages, visibleThreadIds } from './thread-pages.ts';

export type Chosen = { ids: ReadonlySet<number>; allInView: boolean };

export const nothingChosen: Chosen = { ids: new Set(), allInView: false };

/** A row in or out; out of "all in this view", the rest of the loaded rows stay selected. */
export function toggled(chosen: Chosen, pages: Pages, threadId: number): Chosen {
  if (chosen.allInView) {
    const ids = new Set(loadedThreads(pages).map((t) => t.id));
    ids.delete(threadId);
    return { ids, allInView: false };
  }
  const ids = new Set(chosen.ids);
  if (ids.has(threadId)) ids.delete(threadId);
  else ids.add(threadId);
  return { ids, allInView: false };
}

/** Shift-click: the loaded rows from the anchor to `index`, added to what is selected. */
export function withRange(chosen: Chosen, pages: Pages, anchor: number | null, index: number): Chosen {
  const from = anchor ?? index;
  const ids = new Set(chosen.allInView ? loadedThreads(pages).map((t) => t.id) : chosen.ids);
  for (const id of visibleThreadIds(pages, Math.min(from, index), Math.max(from, index))) ids.add(id);
  return { ids, allInView: false };
}

export type HeaderCheck = 'all' | 'some' | 'none';

export function headerCheck(chosen: Chosen, pages: Pages): HeaderCheck {
  if (chosen.allInView) return 'all';
  const loaded = loadedThreads(pages);
  const on = loaded.filter((t) => chosen.ids.has(t.id)).length;
  if (on === 0) return chosen.ids.size > 0 ? 'some' : 'none';
  return on === loaded.length ? 'all' : 'some';
}

/** How many conversations the selection holds. */
export function chosenCount(chosen: Chosen, total: number | null): number {
  return chosen.allInView ? (total ?? 0) : chosen.ids.size;
}

/** "Select all N conversations in this view" is offered once every loaded row is selected and more exist. */
export function offersAllInView(chosen: Chosen, pages: Pages, total: number | null): boolean {
  if (chosen.allInView || total === null) return false;
  const loaded = loadedThreads(pages).length;
  return loaded > 0 && loaded < total && headerCheck(chosen, pages) === 'all' && total <= maxSelectedThreads;
}

export function scopeOf(folderId: number | null, view: MailView, query: string | null): SelectionScope {
  if (query !== null) return { query };
  return folderId !== null ? { folderId } : { view };
}

/** The request's selection; null when nothing is selected. */
export function selectionOf(chosen: Chosen, scope: SelectionScope): ThreadSelection | null {
  if (chosen.allInView) return { scope };
  if (chosen.ids.size === 0) return null;
  return { scope, threads: [...chosen.ids].slice(0, maxSelectedThreads) };
}

/** Whether the list on screen is Spam (a spam folder, or a view that holds Spam). */
export function listIsSpam(folders: readonly Folder[], folderId: number | null, view: MailView): boolean {
  if (folderId !== null) return folders.find((f) => f.id === folderId)?.place === 'spam';
  return inView(view, 'spam') && !inView(view, null);
}

/** Whether the list shows Trash (a Trash folder, or the Trash view): Restore and Delete forever take its place. */
export function listIsTrash(folders: readonly Folder[], folderId: number | null, view: MailView): boolean {
  if (folderId !== null) return folders.find((f) => f.id === folderId)?.place === 'trash';
  return view === 'trash';
}

/**
 * What `!` and the Spam button do to a conversation: "Not spam" in a Spam list, and for a conversation all
 * of whose messages are in Spam (in a search, say); "Spam" otherwise.
 */
export function spamActionFor(
  folders: readonly Folder[],
  list: { folderId: number | null; view: MailView; searching: boolean },
  messageFolders: readonly number[],
): 'spam' | 'notSpam' {
  if (!list.searching && listIsSpam(folders, list.folderId, list.view)) return 'notSpam';
  const place = (id: number): FolderPlace | null => folders.find((f) => f.id === id)?.place ?? null;
  const allSpam = messageFolders.length > 0 && messageFolders.every((id) => place(id) === 'spam');
  return allSpam ? 'notSpam' : 'spam';
}

/**
 * What a conversation key does to a selection (DESIGN §12), as Gmail's keys act on the checked conversations:
 * `e` archives, `#` trashes, `s` stars (unstars when every selected row on screen is starred), `u` marks read
 * (unread when none of them is unread), Shift+I and Shift+U mark read and unread. Null: not a selection key.
 * Rows not loaded ("every conversation of the view") count as unstarred and unread, so `s` and `u` then star
 * and mark read, the first of the two choices.
 */
export function selectionKeyAction(key: string, chosen: Chosen, pages: Pages): BulkAction | null {
  const rows = chosen.allInView ? [] : loadedThreads(pages).filter((t) => chosen.ids.has(t.id));
  const allLoaded = !chosen.allInView && rows.length === chosen.ids.size;
  switch (key) {
    case 'e':
      return { kind: 'archive' };
    case '#':
      return { kind: 'trash' };
    case 's':
      return { kind: 'star', starred: !(allLoaded && rows.length > 0 && rows.every((t) => t.starred)) };
    case 'u':
      return { kind: 'read', read: !(allLoaded && rows.length > 0 && rows.every((t) => t.unread === 0)) };
    case 'I':
      return { kind: 'read', read: true };
    case 'U':
      return { kind: 'read', read: false };
    default:
      return null;
  }
}
