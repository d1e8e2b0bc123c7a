// Open with the system's application, in the desktop app (issue 29 §1): the attachment is written into a new
// private temporary folder and the system is asked to open that file; Skimmer never runs it itself.
import { chmod, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openWarning } from '../../../shared/attachment-risk.ts';
import type { AttachmentBytes } from './attachment-bytes.ts';
import { AttachmentError } from './attachment-error.ts';
import { saveInto } from './save.ts';

/** The system's "open this file" (Electron's shell.openPath): an error's text, or '' when it opened. */
export type OpenPath = (path: string) => Promise<string>;

/**
 * Opens `part` with the system's application, unless it is a program and `confirmed` is false: then the warning,
 * and nothing written. The path opened, or the warning.
 */
export async function openAttachment(
  part: AttachmentBytes,
  confirmed: boolean,
  openPath: OpenPath,
  under = tmpdir(),
): Promise<{ opened: string | null; warning: string | null }> {
  const warning = openWarning(part.name, part.contentType);
  // SECURITY: the main process decides again what the page asked: a page that skips its own question opens no
  // program without the person's yes.
  if (warning && !confirmed) return { opened: null, warning };
  // SECURITY: a folder of its own, rwx for this user only (mkdtemp makes it 0700; said again for any umask), so no
  // other user can read the file or swap it between the write and the open; the name within it is made safe.
  const dir = await mkdtemp(join(under, 'skimmer-open-'));
  await chmod(dir, 0o700);
  const path = await saveInto(dir, part.name, part.content);
  const failed = await openPath(path);
  if (failed) throw new AttachmentError('unreadable', `The system could not open ${path}: ${failed}`);
  return { opened: path, warning };
}
