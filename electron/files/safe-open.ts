// Every file a user names to Skimmer is opened here, under one rule (DESIGN §13, "Files the user names"):
// `documents:import`, `mail:import` (and each file it finds in a folder), `skimmer import` and
// `skimmer summarize --doc`. A path arrives from the renderer, which hostile content may have taken over, or
// from a folder someone else filled (an unpacked archive with a link `notes.txt → /proc/self/environ`).

import {
  closeSync,
  constants,
  fstatSync,
  openSync,
  readlinkSync,
  readSync,
  realpathSync,
  type Stats,
  statSync,
} from 'node:fs';
import { type FileHandle, open, readlink, realpath, stat } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import { resolve, sep } from 'node:path';
import { DomainError } from '../domain-error.ts';

/** Where a named file may be: inside a root, never inside an excluded folder. Real paths (links resolved). */
export type Places = { roots: readonly string[]; excluded: readonly string[] };

export type RefusalReason =
  | 'missing'
  | 'link_loop'
  | 'system'
  | 'data_folder'
  | 'outside'
  | 'not_regular'
  | 'too_large'
  | 'unreadable';

/** A path Skimmer will not open; the message is a sentence to show, without the path. */
export class FileRefusal extends DomainError<RefusalReason> {}

// Kernel pseudo-files: their size says 0 or nothing true, a read can block or never end (/dev/zero), and
// /proc/self holds the process itself (its environment, its memory).
const systemTrees = ['/proc', '/sys', '/dev'];
// Where file pickers show removable drives: Debian /media/$USER, Fedora /run/media/$USER, macOS /Volumes.
const removableDrives = ['/media', '/mnt', '/run/media', '/Volumes'];

function realOrNull(path: string): string | null {
  try {
    return realpathSync(path);
  } catch {
    return null;
  }
}

/**
 * The places a user keeps their own files: the home folder, the temporary folder and removable drives, but not
 * Skimmer's data folder (the database, the vault key, the log). `extraRoots` adds a folder Skimmer ships (the
 * demo mailbox). A root of `/` (a service account's home) would allow everything, so it is no root.
 */
export function userPlaces(opts: { dataDir?: string; extraRoots?: readonly string[] } = {}): Places {
  return {
    roots: realPaths([homedir(), tmpdir(), ...removableDrives, ...(opts.extraRoots ?? [])]),
    excluded: realPaths(opts.dataDir ? [opts.dataDir] : []),
  };
}

const realPaths = (paths: readonly string[]) =>
  paths.map(realOrNull).filter((p): p is string => p !== null && p !== sep);

// Every path on this computer: one root on Linux and macOS; on Windows a root per drive letter, and `\\` for the
// network shares (\\server\share) realpath gives.
const fileSystemRoots = (): string[] =>
  process.platform === 'win32'
    ? [...'ABCDEFGHIJKLMNOPQRSTUVWXYZ'].map((d) => `${d}:\\`).concat('\\\\')
    : [sep];

/**
 * SECURITY: the places of a path typed at the shell (`skimmer import PATH…`): anywhere on this computer, since the
 * person who runs the command chose it and could read it with their own permissions anyway (`cat /var/mail/$USER`);
 * the user's places above guard the paths the renderer names, which hostile content may have chosen. Everything else
 * of the rule still holds: never under /proc, /sys or /dev, never in the data folder (the database, the vault key),
 * regular files only (no FIFO, socket or device), each read bounded and made from the descriptor that was checked.
 */
export function shellPlaces(opts: { dataDir?: string } = {}): Places {
  return { roots: fileSystemRoots(), excluded: realPaths(opts.dataDir ? [opts.dataDir] : []) };
}

const inside = (path: string, dir: string) =>
  path === dir || path.startsWith(dir.endsWith(sep) ? dir : `${dir}${sep}`);

/** Pure. Why a real path (every link resolved) is not a place the user could have picked a file from, or null. */
export function placeRefusal(real: string, places: Places): 'system' | 'data_folder' | 'outside' | null {
  if (systemTrees.some((d) => inside(real, d))) return 'system';
  if (places.excluded.some((d) => inside(real, d))) return 'data_folder';
  if (!places.roots.some((d) => inside(real, d))) return 'outside';
  return null;
}

const placeSentences = {
  system: 'This is a system file (under /proc, /sys or /dev), not one of yours.',
  data_folder: "This is in Skimmer's own data folder.",
  outside:
    'Skimmer opens files only from your home folder, the temporary folder and removable drives: copy it there first.',
} as const;

function kindSentence(st: Stats): string {
  if (st.isDirectory()) return 'This is a folder, not a file.';
  if (st.isFIFO()) return 'This is a pipe, not a file.';
  if (st.isSocket()) return 'This is a socket, not a file.';
  if (st.isCharacterDevice() || st.isBlockDevice()) return 'This is a device, not a file.';
  return 'This is not a regular file.';
}

function refusalOf(e: unknown): FileRefusal {
  if (e instanceof FileRefusal) return e;
  const code = (e as { code?: unknown })?.code;
  if (code === 'ENOENT' || code === 'ENOTDIR') return new FileRefusal('missing', 'No such file or folder.');
  if (code === 'ELOOP') return new FileRefusal('link_loop', 'This link leads round in a loop.');
  if (code === 'EACCES' || code === 'EPERM')
    return new FileRefusal('unreadable', 'Skimmer may not read this file.');
  return new FileRefusal('unreadable', 'This file could not be opened.');
}

function checkPlace(real: string, places: Places): void {
  const why = placeRefusal(real, places);
  if (why) throw new FileRefusal(why, placeSentences[why]);
}

/**
 * Where a named path really is and what it is, before anything is opened: every link resolved (a link is followed
 * only to a place the rule allows), then the place checked. A FIFO, socket or device is refused here by its type,
 * so it is never opened. Throws FileRefusal.
 */
export async function locateUserPath(path: string, places: Places): Promise<{ real: string; stats: Stats }> {
  try {
    const real = await realpath(resolve(path));
    checkPlace(real, places);
    return { real, stats: await stat(real) };
  } catch (e) {
    throw refusalOf(e);
  }
}

// The path of what a descriptor really points at, from the kernel (Linux /proc/self/fd), so a folder on the way
// swapped for a link between the check and the open is caught. Elsewhere the checked real path stands.
async function openedPath(fd: number): Promise<string | null> {
  if (process.platform !== 'linux') return null;
  return readlink(`/proc/self/fd/${fd}`).catch(() => null);
}

const megabytes = (n: number) => `${Math.round(n / (1024 * 1024))} MB`;

/**
 * SECURITY: the one way a file the user named is opened. The path is located (above), then opened without following
 * a last link (O_NOFOLLOW) and without waiting for a writer (O_NONBLOCK: a FIFO swapped in after the check opens at
 * once and is refused); the open descriptor's own fstat decides (a regular file, at most `maxBytes`) and its own
 * path is checked again, so nothing is read from anything but the file that was checked. The caller closes it.
 */
export async function openUserFile(
  path: string,
  places: Places,
  maxBytes: number,
): Promise<{ handle: FileHandle; size: number; real: string }> {
  const { real, stats } = await locateUserPath(path, places);
  if (!stats.isFile()) throw new FileRefusal('not_regular', kindSentence(stats));
  let handle: FileHandle;
  try {
    handle = await open(real, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0));
  } catch (e) {
    throw refusalOf(e);
  }
  try {
    const st = await handle.stat();
    if (!st.isFile()) throw new FileRefusal('not_regular', kindSentence(st));
    checkPlace((await openedPath(handle.fd)) ?? real, places);
    if (st.size > maxBytes)
      throw new FileRefusal('too_large', `This file is larger than ${megabytes(maxBytes)}.`);
    return { handle, size: st.size, real };
  } catch (e) {
    await handle.close();
    throw refusalOf(e);
  }
}

const readStep = 1024 * 1024;

/**
 * A whole file the user named, read off the main thread (each step is one read on libuv's pool, so the thread that
 * answers the bridge never waits for the disk) and never more than the size its descriptor had when checked.
 */
export async function readUserFile(path: string, places: Places, maxBytes: number): Promise<Buffer> {
  const { handle, size } = await openUserFile(path, places, maxBytes);
  try {
    const buf = Buffer.alloc(size);
    let done = 0;
    while (done < size) {
      const { bytesRead } = await handle.read(buf, done, Math.min(readStep, size - done), done);
      if (bytesRead === 0) break; // it shrank after the check: what is there is what is read
      done += bytesRead;
    }
    return buf.subarray(0, done);
  } catch (e) {
    throw refusalOf(e);
  } finally {
    await handle.close();
  }
}

/**
 * SECURITY: readUserFile's rule, step for step, with blocking calls: for a worker thread that reads many small files
 * one after another (a Maildir's, in the import worker), where each of the seven steps as a promise on libuv's pool
 * cost more than the read itself: 20,000 messages spent 3.2 s of the storing thread there (issue 18). Never on the
 * thread that answers the bridge.
 */
export function readUserFileSync(path: string, places: Places, maxBytes: number): Buffer {
  let fd: number;
  try {
    // libc's realpath(3): the JS realpathSync lstat()s every component of the path from JavaScript, a fifth of
    // the storing thread's time over a Maildir's 20,000 files (issue 18). The same answer on Linux and macOS.
    const real = realpathSync.native(resolve(path));
    checkPlace(real, places);
    const stats = statSync(real);
    if (!stats.isFile()) throw new FileRefusal('not_regular', kindSentence(stats));
    fd = openSync(real, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0));
  } catch (e) {
    throw refusalOf(e);
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) throw new FileRefusal('not_regular', kindSentence(st));
    if (process.platform === 'linux') checkPlace(readlinkSync(`/proc/self/fd/${fd}`), places);
    if (st.size > maxBytes)
      throw new FileRefusal('too_large', `This file is larger than ${megabytes(maxBytes)}.`);
    // Its own memory, not a slice of Node's shared pool, so the import can hand it to a parse thread whole.
    const buf = Buffer.allocUnsafeSlow(st.size);
    let done = 0;
    while (done < st.size) {
      const n = readSync(fd, buf, done, st.size - done, done);
      if (n === 0) break; // it shrank after the check: what is there is what is read
      done += n;
    }
    return buf.subarray(0, done);
  } catch (e) {
    throw refusalOf(e);
  } finally {
    closeSync(fd);
  }
}
