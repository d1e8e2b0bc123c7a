// One folder of the user's own places, listed for the page's file browser (`files:browse`, DESIGN §13, "Choosing
// files"). The browser mode has no system dialog, so the page asks for a folder's entries and the user picks
// from them; the chosen paths then go to an import, which opens each under the file rule (safe-open.ts). This
// lists names, kinds and sizes only: nothing here opens a file.
import type { Stats } from 'node:fs';
import { lstat, opendir, realpath, stat } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import { dirname, extname, isAbsolute, join, sep } from 'node:path';
import { FileRefusal, type Places, placeRefusal } from './safe-open.ts';

type EntryLooks = 'mbox' | 'eml' | 'maildir' | 'document';
type Entry = {
  name: string;
  path: string;
  kind: 'file' | 'folder';
  size: number | null;
  looks: EntryLooks | null;
};
type NamedPath = { name: string; path: string };
export type Listing = {
  dir: string;
  crumbs: NamedPath[];
  up: string | null;
  places: NamedPath[];
  entries: Entry[];
  matched: number;
  hidden: number;
  scanCut: boolean;
};
export type BrowseRequest = {
  dir?: string | undefined;
  filter?: string | undefined;
  hidden?: boolean | undefined;
};
export type BrowseBounds = { maxEntries: number; maxScan: number };

// The page shows at most this many (folders first); a filter finds the rest. A folder with more entries than
// `maxScan` (a mail spool, a cache) is read only that far, so one listing cannot hold the main process for long.
const defaultBounds: BrowseBounds = { maxEntries: 2000, maxScan: 50_000 };
// stat calls in flight at once while a listing's entries are looked at.
const statConcurrency = 32;

const documentExtensions = new Set(['.txt', '.md', '.markdown', '.pdf', '.docx']);
const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });

function realOrNull(path: string): Promise<string | null> {
  return realpath(path).catch(() => null);
}

/** The user's places with the names a file dialog gives them: Home, the temporary folder, each drive folder. */
async function namedPlaces(places: Places): Promise<NamedPath[]> {
  const [home, tmp] = await Promise.all([realOrNull(homedir()), realOrNull(tmpdir())]);
  return places.roots.map((path) => ({
    path,
    name: path === home ? 'Home' : path === tmp ? 'Temporary folder' : path,
  }));
}

const inside = (path: string, dir: string) =>
  path === dir || path.startsWith(dir.endsWith(sep) ? dir : `${dir}${sep}`);

// The innermost place holding a path (the home folder may itself be inside a drive folder).
function placeOf(real: string, places: NamedPath[]): NamedPath | null {
  let best: NamedPath | null = null;
  for (const p of places) if (inside(real, p.path) && (!best || p.path.length > best.path.length)) best = p;
  return best;
}

function crumbsOf(real: string, place: NamedPath): NamedPath[] {
  const crumbs = [place];
  const rest = real.slice(place.path.length).split(sep).filter(Boolean);
  let at = place.path;
  for (const part of rest) {
    at = join(at, part);
    crumbs.push({ name: part, path: at });
  }
  return crumbs;
}

type Candidate = { name: string; path: string; kind: 'file' | 'folder'; stats?: Stats };

// SECURITY: an entry that is a link is listed only as where it really leads, and only when that is a regular file or
// a folder inside the user's places and outside the data folder: a link in ~/Downloads to /etc or to Skimmer's own
// data folder is left out, so the browser never offers it (the import would refuse it anyway).
async function followLink(dir: string, name: string, places: Places): Promise<Candidate | null> {
  const real = await realOrNull(join(dir, name));
  if (!real || placeRefusal(real, places)) return null;
  const st = await stat(real).catch(() => null);
  if (st?.isDirectory()) return { name, path: real, kind: 'folder', stats: st };
  if (st?.isFile()) return { name, path: real, kind: 'file', stats: st };
  return null;
}

async function inBatches<T, R>(items: readonly T[], run: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < items.length; i += statConcurrency) {
    out.push(...(await Promise.all(items.slice(i, i + statConcurrency).map(run))));
  }
  return out;
}

async function isMaildir(dir: string): Promise<boolean> {
  const [cur, nw] = await Promise.all(['cur', 'new'].map((d) => lstat(join(dir, d)).catch(() => null)));
  return Boolean(cur?.isDirectory() && nw?.isDirectory());
}

// Thunderbird keeps each folder as an mbox without an extension beside its index, `Inbox` and `Inbox.msf`.
function fileLooks(name: string, names: ReadonlySet<string>): EntryLooks | null {
  const ext = extname(name).toLowerCase();
  if (ext === '.mbox') return 'mbox';
  if (ext === '.eml') return 'eml';
  if (documentExtensions.has(ext)) return 'document';
  if (ext === '' && names.has(`${name}.msf`)) return 'mbox';
  return null;
}

async function describe(c: Candidate, names: ReadonlySet<string>): Promise<Entry | null> {
  try {
    if (c.kind === 'folder') {
      return {
        name: c.name,
        path: c.path,
        kind: 'folder',
        size: null,
        looks: (await isMaildir(c.path)) ? 'maildir' : null,
      };
    }
    const st = c.stats ?? (await lstat(c.path));
    if (!st.isFile()) return null;
    return { name: c.name, path: c.path, kind: 'file', size: st.size, looks: fileLooks(c.name, names) };
  } catch {
    return null; // gone since it was read: not listed
  }
}

// SECURITY: the folder the page names, validated before anything is read: an absolute path, resolved with realpath
// (every link followed), and the real path must be a folder inside the user's places, never under /proc, /sys or
// /dev and never in Skimmer's data folder (safe-open.ts placeRefusal).
async function locateFolder(start: string, places: Places): Promise<string> {
  if (!isAbsolute(start)) throw new FileRefusal('outside', 'A folder is named by its whole path.');
  let real: string;
  try {
    real = await realpath(start);
  } catch (e) {
    const code = (e as { code?: unknown })?.code;
    if (code === 'ELOOP') throw new FileRefusal('link_loop', 'This link leads round in a loop.');
    throw new FileRefusal('missing', 'No such folder.');
  }
  const why = placeRefusal(real, places);
  if (why === 'data_folder') throw new FileRefusal(why, "This is Skimmer's own data folder.");
  if (why === 'system') throw new FileRefusal(why, 'This is a system folder (under /proc, /sys or /dev).');
  if (why) {
    throw new FileRefusal(
      why,
      'Skimmer shows only your home folder, the temporary folder and removable drives.',
    );
  }
  const st = await stat(real).catch(() => null);
  if (!st?.isDirectory()) throw new FileRefusal('not_regular', 'This is not a folder.');
  return real;
}

type Names = { all: Set<string>; plain: Candidate[]; links: string[]; hidden: number; scanCut: boolean };

// The folder's names, at most `maxScan` of them, sorted into what may be listed: folders and regular files by the
// entry's own type, links to follow; anything else (a FIFO, a socket, a device) is never listed, never opened.
async function readNames(real: string, request: BrowseRequest, maxScan: number): Promise<Names> {
  const filter = request.filter?.trim().toLowerCase() ?? '';
  const names: Names = { all: new Set(), plain: [], links: [], hidden: 0, scanCut: false };
  let handle: Awaited<ReturnType<typeof opendir>>;
  try {
    handle = await opendir(real, { bufferSize: 256 });
  } catch {
    throw new FileRefusal('unreadable', 'Skimmer may not read this folder.');
  }
  for await (const d of handle) {
    if (names.all.size >= maxScan) {
      names.scanCut = true;
      break; // leaving the loop closes the folder
    }
    names.all.add(d.name);
    if (!request.hidden && d.name.startsWith('.')) {
      names.hidden++;
      continue;
    }
    if (filter && !d.name.toLowerCase().includes(filter)) continue;
    if (d.isSymbolicLink()) names.links.push(d.name);
    else if (d.isDirectory()) names.plain.push({ name: d.name, path: join(real, d.name), kind: 'folder' });
    else if (d.isFile()) names.plain.push({ name: d.name, path: join(real, d.name), kind: 'file' });
  }
  return names;
}

/**
 * SECURITY: one folder of the user's places, listed for the page: the folder located under the file rule (above),
 * only regular files and folders listed, links only to where the rule allows, the data folder left out, and the
 * listing bounded. Throws FileRefusal.
 */
export async function browseFolder(
  request: BrowseRequest,
  places: Places,
  bounds: BrowseBounds = defaultBounds,
): Promise<Listing> {
  const named = await namedPlaces(places);
  // Without a folder named: the home folder, or the first place when the home folder is none (a home of `/`).
  const home = await realOrNull(homedir());
  const start = request.dir ?? (home && placeOf(home, named) ? home : named[0]?.path);
  if (!start) throw new FileRefusal('outside', 'Skimmer has no folder of yours to show.');
  const real = await locateFolder(start, places);
  const names = await readNames(real, request, bounds.maxScan);
  // SECURITY: a folder on the way swapped for a link while it was read would have listed somewhere else: the path
  // must still lead where it was checked to (Node gives a Dir no descriptor to ask, as safe-open.ts asks a file's).
  if ((await realOrNull(real)) !== real)
    throw new FileRefusal('unreadable', 'This folder moved while Skimmer read it.');
  const followed = await inBatches(names.links, (name) => followLink(real, name, places));
  const candidates = [...names.plain, ...followed.filter((c): c is Candidate => c !== null)]
    // The data folder itself, listed in its parent, is left out.
    .filter((c) => c.kind === 'file' || placeRefusal(c.path, places) === null)
    .sort((a, b) => (a.kind === b.kind ? collator.compare(a.name, b.name) : a.kind === 'folder' ? -1 : 1));
  const shown = await inBatches(candidates.slice(0, bounds.maxEntries), (c) => describe(c, names.all));
  const place = placeOf(real, named) as NamedPath;
  return {
    dir: real,
    crumbs: crumbsOf(real, place),
    up: real === place.path ? null : dirname(real),
    places: named,
    entries: shown.filter((e): e is Entry => e !== null),
    matched: candidates.length,
    hidden: names.hidden,
    scanCut: names.scanCut,
  };
}
