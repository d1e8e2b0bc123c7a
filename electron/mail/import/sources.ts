// What an import reads: `.eml` files, `.mbox` files and Maildir folders, found from the paths the user
// chose. Planning (what to read, how many bytes) is separate from reading so progress has a total. Every path,
// named or found in a folder, is opened through files/safe-open.ts under the places its caller gives (the user's own
// for the renderer's paths, anywhere but /proc, /sys, /dev and the data folder for the shell's), regular files only,
// the size checked on the open descriptor.
import { createReadStream, lstatSync } from 'node:fs';
import { lstat, readdir } from 'node:fs/promises';
import { basename, extname, join, resolve } from 'node:path';
import {
  FileRefusal,
  locateUserPath,
  openUserFile,
  type Places,
  placeRefusal,
  readUserFileSync,
} from '../../files/safe-open.ts';
import { type MailFlags, maildirFlags } from './mail-flags.ts';
import { maxMessageBytes } from './parse-bounds.ts';

export type FolderRef = { name: string; source: string };
// `flags`: a Maildir file's, from its name (mail-flags.ts), which decides there; absent for an mbox or an .eml file,
// whose messages carry theirs in their headers (ParsedMessage.statusFlags).
export type Unit = { kind: 'eml' | 'mbox'; path: string; size: number; folder: FolderRef; flags?: MailFlags };
export type RawMessage = { folder: FolderRef; source: string; raw: Buffer; flags?: MailFlags };
type Problem = { source: string; reason: string };
export type Plan = { units: Unit[]; bytesTotal: number; problems: Problem[] };

const maxDepth = 12;

// A named path is followed through links to where it really is, and taken only if that is a folder or a regular
// file in the user's places (files/safe-open.ts); a refusal is a problem of the import, not its end.
export async function planImport(paths: readonly string[], places: Places): Promise<Plan> {
  const units: Unit[] = [];
  const problems: Problem[] = [];
  for (const p of paths) {
    const abs = resolve(p);
    try {
      const { real, stats } = await locateUserPath(abs, places);
      if (stats.isDirectory()) await walk(real, { units, problems, places }, 0);
      else units.push(await fileUnit(real, stats.size, places));
    } catch (e) {
      if (!(e instanceof FileRefusal)) throw e;
      problems.push({ source: abs, reason: e.message });
    }
  }
  return { units, bytesTotal: units.reduce((n, u) => n + u.size, 0), problems };
}

async function fileUnit(path: string, size: number, places: Places): Promise<Unit> {
  const kind =
    extname(path).toLowerCase() === '.mbox' || (await startsWithFromLine(path, places)) ? 'mbox' : 'eml';
  const folder =
    kind === 'mbox'
      ? { name: basename(path).replace(/\.mbox$/i, ''), source: path }
      : { name: basename(resolve(path, '..')), source: resolve(path, '..') };
  return { kind, path, size, folder };
}

// Opening it checks it is a regular file (a device or a pipe is refused here, never read).
async function startsWithFromLine(path: string, places: Places): Promise<boolean> {
  const { handle } = await openUserFile(path, places, Number.POSITIVE_INFINITY);
  try {
    const head = Buffer.alloc(5);
    const { bytesRead } = await handle.read(head, 0, 5, 0);
    return head.toString('latin1', 0, bytesRead) === 'From ';
  } finally {
    await handle.close();
  }
}

async function isMaildir(dir: string): Promise<boolean> {
  const [cur, nw] = await Promise.all(['cur', 'new'].map((d) => lstat(join(dir, d)).catch(() => null)));
  return Boolean(cur?.isDirectory() && nw?.isDirectory());
}

type Found = { units: Unit[]; problems: Problem[]; places: Places };

// Symlinked folders and files are not followed (they can loop, or lead out of the folder the user chose); depth is
// bounded for the same reason.
async function walk(dir: string, found: Found, depth: number): Promise<void> {
  const { units } = found;
  if (depth > maxDepth) return;
  if (await isMaildir(dir)) {
    const folder = { name: maildirName(dir), source: dir };
    for (const sub of ['cur', 'new']) {
      for (const f of (await readdir(join(dir, sub), { withFileTypes: true })).sort(byName)) {
        if (!f.isFile() || f.name.startsWith('.')) continue;
        const path = join(dir, sub, f.name);
        const size = lstatSync(path).size;
        units.push({ kind: 'eml', path, size, folder, flags: maildirFlags(f.name) });
      }
    }
  }
  const entries = (await readdir(dir, { withFileTypes: true })).sort(byName);
  for (const e of entries) {
    const path = join(dir, e.name);
    if (e.isDirectory()) {
      // SECURITY: a folder the rule refuses (/proc under an import of `/`, the data folder under one of the home
      // folder) is not walked: every file in it would be refused one by one, or, in /proc, listing it is reading the
      // processes. The path is real: the walk starts from a real path and follows no link.
      if (placeRefusal(path, found.places) !== null) continue;
      if (!['cur', 'new', 'tmp'].includes(e.name)) await walk(path, found, depth + 1);
    } else if (e.isFile()) {
      const ext = extname(e.name).toLowerCase();
      // Thunderbird keeps each folder as an mbox without an extension ("Inbox", "Sent") beside its .msf index.
      const thunderbird = ext === '' && !e.name.startsWith('.');
      if (ext !== '.eml' && ext !== '.mbox' && !thunderbird) continue;
      try {
        if (thunderbird && !(await startsWithFromLine(path, found.places))) continue;
        units.push(await fileUnit(path, (await lstat(path)).size, found.places));
      } catch (err) {
        if (!(err instanceof FileRefusal)) throw err;
        found.problems.push({ source: path, reason: err.message });
      }
    }
  }
}

function byName(a: { name: string }, b: { name: string }): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

// Maildir++ keeps subfolders as `.Name.Sub` beside cur/new/tmp.
function maildirName(dir: string): string {
  const base = basename(dir);
  return base.startsWith('.') ? base.slice(1).replace(/\./g, '/') : base;
}

// What was planned is opened again under the same rule, so a file swapped for a pipe, a link or a bigger file since
// the plan is refused; an .eml over the message bound is refused by its size, before it is read.
export async function* readUnit(unit: Unit, places: Places): AsyncGenerator<RawMessage> {
  if (unit.kind === 'eml') {
    yield {
      folder: unit.folder,
      source: unit.path,
      // The import worker reads a Maildir's files one by one: blocking reads cost it a tenth as much.
      raw: readUserFileSync(unit.path, places, maxMessageBytes),
      ...(unit.flags && { flags: unit.flags }),
    };
    return;
  }
  const { handle } = await openUserFile(unit.path, places, Number.POSITIVE_INFINITY);
  for await (const m of splitMbox(createReadStream('', { fd: handle, highWaterMark: 1024 * 1024 }))) {
    yield { folder: unit.folder, source: `${unit.path}#${m.offset}`, raw: m.raw };
  }
}

export type MboxPart = { offset: number; raw: Buffer };

// mbox: each message starts with a "From " line at the start of the file or after a blank line. mboxrd
// escapes body lines as ">From ", ">>From " …; one ">" is removed on read (mboxo files read the same).
export async function* splitMbox(chunks: AsyncIterable<Buffer | string>): AsyncGenerator<MboxPart> {
  let buf = Buffer.alloc(0);
  let base = 0; // file offset of buf[0]
  let start = -1; // offset in buf where the current message's From_ line starts
  let scanFrom = 0;
  for await (const chunk of chunks) {
    buf = buf.length === 0 ? Buffer.from(chunk) : Buffer.concat([buf, Buffer.from(chunk)]);
    if (start < 0) {
      if (buf.length < 5) continue;
      if (buf.toString('latin1', 0, 5) !== 'From ')
        throw new Error('This file is not an mbox: it does not start with "From ".');
      start = 0;
      scanFrom = 1;
    }
    for (;;) {
      const sep = nextSeparator(buf, scanFrom);
      if (sep < 0) {
        scanFrom = Math.max(start + 1, buf.length - 6);
        break;
      }
      yield { offset: base + start, raw: messageBody(buf, start, sep) };
      start = sep;
      scanFrom = sep + 1;
    }
    if (start > 0) {
      buf = buf.subarray(start);
      base += start;
      scanFrom -= start;
      start = 0;
    }
  }
  if (start >= 0 && buf.length > 0) yield { offset: base + start, raw: messageBody(buf, start, buf.length) };
}

// Index of the "F" of the next "From " that begins a line after a blank line, or -1.
function nextSeparator(buf: Buffer, from: number): number {
  let i = from;
  for (;;) {
    const nl = buf.indexOf('\nFrom ', i - 1, 'latin1');
    if (nl < 0) return -1;
    const f = nl + 1;
    if (nl >= 1 && (buf[nl - 1] === 0x0a || (buf[nl - 1] === 0x0d && nl >= 2 && buf[nl - 2] === 0x0a)))
      return f;
    i = f + 1;
  }
}

function messageBody(buf: Buffer, start: number, end: number): Buffer {
  const lineEnd = buf.indexOf(0x0a, start);
  const bodyStart = lineEnd < 0 || lineEnd >= end ? end : lineEnd + 1;
  let raw = buf.subarray(bodyStart, end);
  if (raw.indexOf('>From ', 0, 'latin1') >= 0) {
    raw = Buffer.from(raw.toString('latin1').replace(/^>(>*From )/gm, '$1'), 'latin1');
  } else {
    // Detached from the growing read buffer into memory of its own (not Node's shared pool), so the import can
    // hand it to a parse thread whole.
    const own = Buffer.allocUnsafeSlow(raw.length);
    raw.copy(own);
    raw = own;
  }
  return raw;
}
