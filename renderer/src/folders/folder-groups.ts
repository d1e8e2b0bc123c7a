// The folder list below the views (DESIGN §12): each IMAP account's folders under its name, each import's under
// the name of the folder on disk it came from, and Skimmer's own Archive and Trash for imported mail under
// "On this computer". Issue 16 asks that no two entries look the same: the heading tells an account's Inbox from
// the combined one above, and inside a group a repeated name gets the part of its path that tells it apart, or
// else a number. Pure, so the grouping is tested with tables (folder-groups.test.ts).
import type { Folder, FolderPlace } from '../../../shared/contract/index.ts';
import { displayText } from '../mail/display-text.ts';

type FolderEntry = { folder: Folder; label: string };
export type FolderGroup = {
  // Stable across reloads, for remembering which groups are collapsed.
  key: string;
  kind: 'account' | 'import' | 'local';
  title: string;
  entries: FolderEntry[];
};

// A group's special folders first, in the order of the views above, then its own folders by name.
const placeOrder: FolderPlace[] = ['inbox', 'drafts', 'sent', 'archive', 'spam', 'trash'];
const localTitle = 'On this computer';

const segments = (path: string): string[] => path.split(/[\\/]+/).filter((s) => s !== '');
const lastSegment = (path: string): string => segments(path).at(-1) ?? path;

// The folder on disk an imported folder's mail came from: an mbox file's folder, or the folder itself (a
// Maildir or a folder of .eml files). Sources are the paths import planned (electron/mail/import/sources.ts).
function diskFolder(source: string): string {
  const trimmed = source.replace(/[\\/]+$/, '');
  if (!/\.mbox$/i.test(trimmed)) return trimmed;
  const cut = Math.max(trimmed.lastIndexOf('/'), trimmed.lastIndexOf('\\'));
  return cut > 0 ? trimmed.slice(0, cut) : trimmed;
}

const within = (path: string, root: string): boolean =>
  path === root || path.startsWith(`${root}/`) || path.startsWith(`${root}\\`);

// The folder a disk folder sits in, or null at the top of the file system.
function parentOf(dir: string): string | null {
  const cut = Math.max(dir.lastIndexOf('/'), dir.lastIndexOf('\\'));
  const parent = cut > 0 ? dir.slice(0, cut) : '';
  return segments(parent).length > 0 ? parent : null;
}

// Skimmer keeps no record of an import, but its folders' sources tell: one import's folders lie in the folder the
// user chose. A Maildir's subfolders are inside it and an export's .mbox files beside each other, so a folder
// belongs to the outermost disk folder that holds it; folders of .eml files side by side (an export's
// `work/`, `Sent/`) are one import, named for the folder they sit in. A lone folder (the demo) is its own.
function importRoots(sources: readonly string[]): Map<string, string> {
  const dirs = [...new Set(sources.map(diskFolder))];
  const outer = dirs.filter((d) => !dirs.some((o) => o !== d && within(d, o)));
  const siblings = new Map<string, number>();
  for (const d of outer) {
    const parent = parentOf(d);
    if (parent !== null) siblings.set(parent, (siblings.get(parent) ?? 0) + 1);
  }
  const rootOf = (d: string) => {
    const parent = parentOf(d);
    return parent !== null && (siblings.get(parent) ?? 0) > 1 ? parent : d;
  };
  const roots = new Map<string, string>();
  for (const source of sources) {
    const dir = diskFolder(source);
    roots.set(source, rootOf(outer.find((o) => within(dir, o)) ?? dir));
  }
  return roots;
}

function folderName(folder: Folder): string {
  // An account's INBOX is "Inbox" under the account's name, as in every mail client.
  if (folder.place === 'inbox' && folder.account !== null) return 'Inbox';
  return displayText(folder.name);
}

// Where a folder sits under its import, as a hint for two folders of the same name ("Inbox — work").
function pathHint(folder: Folder, root: string | undefined): string | null {
  if (root === undefined || folder.source === root) return null;
  const inner = segments(diskFolder(folder.source).slice(root.length));
  return inner.length > 0 ? displayText(inner.join('/')) : null;
}

/** `labels` made unique in order: a repeated one gets " (2)", " (3)"… */
function numbered(labels: readonly string[]): string[] {
  const taken = new Set<string>();
  return labels.map((label) => {
    let unique = label;
    for (let n = 2; taken.has(unique.toLowerCase()); n++) unique = `${label} (${n})`;
    taken.add(unique.toLowerCase());
    return unique;
  });
}

function byPlaceThenName(a: FolderEntry, b: FolderEntry): number {
  const rank = (e: FolderEntry) =>
    e.folder.place === null ? placeOrder.length : placeOrder.indexOf(e.folder.place);
  return (
    rank(a) - rank(b) ||
    a.label.localeCompare(b.label, undefined, { sensitivity: 'base' }) ||
    a.folder.id - b.folder.id
  );
}

function entriesOf(folders: readonly Folder[], roots: Map<string, string>): FolderEntry[] {
  const named = folders.map((folder) => ({ folder, label: folderName(folder) }));
  const count = new Map<string, number>();
  for (const e of named) count.set(e.label.toLowerCase(), (count.get(e.label.toLowerCase()) ?? 0) + 1);
  const hinted = named.map((e) => {
    if ((count.get(e.label.toLowerCase()) ?? 0) < 2) return e;
    const hint = pathHint(e.folder, roots.get(e.folder.source));
    return hint === null ? e : { ...e, label: `${e.label} — ${hint}` };
  });
  hinted.sort(byPlaceThenName);
  const labels = numbered(hinted.map((e) => e.label));
  return hinted.map((e, i) => ({ folder: e.folder, label: labels[i] ?? e.label }));
}

/** The folders in groups: accounts by name, then imports by name, then this computer's own folders. */
export function groupFolders(folders: readonly Folder[]): FolderGroup[] {
  const isOwn = (f: Folder) => f.account === null && f.source.startsWith('skimmer:');
  const imported = folders.filter((f) => f.account === null && !isOwn(f));
  const roots = importRoots(imported.map((f) => f.source));

  const buckets = new Map<
    string,
    { kind: FolderGroup['kind']; title: string; folders: Folder[]; sort: string }
  >();
  const put = (key: string, kind: FolderGroup['kind'], title: string, sort: string, folder: Folder) => {
    const bucket = buckets.get(key) ?? { kind, title, folders: [], sort };
    bucket.folders.push(folder);
    buckets.set(key, bucket);
  };
  for (const folder of folders) {
    if (folder.account !== null) {
      const { id, name } = folder.account;
      put(`account:${id}`, 'account', displayText(name), `0:${name.toLowerCase()}:${id}`, folder);
    } else if (isOwn(folder)) {
      put('local', 'local', localTitle, '2:', folder);
    } else {
      const root = roots.get(folder.source) ?? folder.source;
      const title = displayText(lastSegment(root));
      put(`import:${root}`, 'import', title, `1:${title.toLowerCase()}:${root}`, folder);
    }
  }
  const sorted = [...buckets.entries()].sort(([, a], [, b]) =>
    a.sort < b.sort ? -1 : a.sort > b.sort ? 1 : 0,
  );
  const titles = numbered(sorted.map(([, b]) => b.title));
  return sorted.map(([key, b], i) => ({
    key,
    kind: b.kind,
    title: titles[i] ?? b.title,
    entries: entriesOf(b.folders, roots),
  }));
}
