// Writing an attachment into a folder the person chose (issue 29 §1): under a safe name (shared/safe-file-name.ts), as a new
// file beside whatever is there, never executable.
import { constants } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { numberedName, safeFileName } from '../../../shared/safe-file-name.ts';

/** rw-r--r-- before the umask: SECURITY: a saved attachment is data, never a program (no execute bit). */
const fileMode = 0o644;

/**
 * Writes `content` into `dir` as `name` made safe, or `name (2)`, `name (3)`… when taken; the path written.
 * SECURITY: O_CREAT|O_EXCL creates the file or fails: it never truncates an existing file and never follows a
 * link planted at that name (a link to ~/.bashrc is "taken", and the next number is used). O_NOFOLLOW adds the
 * same for systems whose O_EXCL would.
 */
export async function saveInto(dir: string, name: string, content: Buffer): Promise<string> {
  const info = await stat(dir).catch(() => null);
  if (!info?.isDirectory()) throw Object.assign(new Error(`${dir} is not a folder.`), { code: 'ENOTDIR' });
  const safe = safeFileName(name);
  const flags = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0);
  for (let n = 1; n < 10_000; n++) {
    const path = join(dir, numberedName(safe, n));
    const handle = await open(path, flags, fileMode).catch((e: NodeJS.ErrnoException) => {
      if (e.code === 'EEXIST' || e.code === 'ELOOP') return null;
      throw e;
    });
    if (!handle) continue;
    try {
      await handle.writeFile(content);
    } finally {
      await handle.close();
    }
    return path;
  }
  throw Object.assign(new Error(`${dir} already holds 9,999 files named ${safe}.`), { code: 'EEXIST' });
}

/**
 * Writes `content` at the path the person chose in the system's save dialog (which asked before replacing a
 * file). SECURITY: the path is the person's choice, never the sender's name (that was only the dialog's
 * suggestion); O_NOFOLLOW refuses a link planted at that path, and the file is never executable.
 */
export async function saveAt(path: string, content: Buffer): Promise<void> {
  const flags = constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | (constants.O_NOFOLLOW ?? 0);
  const handle = await open(path, flags, fileMode);
  try {
    await handle.writeFile(content);
  } finally {
    await handle.close();
  }
}
