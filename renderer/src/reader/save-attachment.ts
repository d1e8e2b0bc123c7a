// Save and Save all on attachment chips (issue 29 §1). In the desktop app the main process asks the system's save
// (or folder) dialog and writes the file itself; in browser mode the browser downloads from the server's route
// (electron/web/attachment-download.ts), so the page never holds the bytes of a 25 MB file.
import { attachmentsZipUrl, attachmentUrl, errorHeader } from '../../../shared/attachment-urls.ts';
import { safeFileName } from '../../../shared/safe-file-name.ts';
import { bridge, bridgeKind } from '../bridge.ts';

/** Saves attachment `index` of `message`; the error's sentence, or null. */
export async function saveAttachment(message: number, index: number, name: string): Promise<string | null> {
  if (bridgeKind === 'desktop') {
    const reply = await bridge['attachment:save']({ message, index });
    return reply.ok ? null : reply.error.message;
  }
  return download(attachmentUrl(message, index), safeFileName(name, `attachment-${index + 1}`));
}

/** Saves every attachment of `message`: a folder in the desktop app, a zip in browser mode; the error, or null. */
export async function saveAllAttachments(message: number): Promise<string | null> {
  if (bridgeKind === 'desktop') {
    const reply = await bridge['attachment:save-all']({ message });
    return reply.ok ? null : reply.error.message;
  }
  return download(attachmentsZipUrl(message), `message-${message}-attachments.zip`);
}

// A HEAD first: it reads the part into the main process's cache and says, with its sentence, when the download
// would fail, which a download link cannot tell the page. Then the browser downloads from the route itself.
async function download(url: string, name: string): Promise<string | null> {
  let check: Response;
  try {
    check = await fetch(url, { method: 'HEAD', credentials: 'same-origin', cache: 'no-store' });
  } catch {
    return 'Skimmer could not be reached for the download.';
  }
  if (!check.ok) {
    const said = check.headers.get(errorHeader);
    return said ? decodeURIComponent(said) : 'The download failed.';
  }
  // The server's Content-Disposition names it too (the same safe name).
  clickDownload(url, name);
  return null;
}

/**
 * Hands bytes already in the page (a small file such as an invitation's .ics) to the browser as a download named
 * `name` (made safe by the caller).
 * SECURITY: the download is typed application/octet-stream, never the sender's type: a browser must not open an
 * HTML or SVG attachment as a page of Skimmer's origin.
 */
export function offerDownload(chunks: Uint8Array<ArrayBuffer>[], name: string): void {
  const url = URL.createObjectURL(new Blob(chunks, { type: 'application/octet-stream' }));
  try {
    clickDownload(url, name);
  } finally {
    // Revoked after the click has been handled: the download has its own reference by then.
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  }
}

function clickDownload(href: string, name: string): void {
  const a = document.createElement('a');
  a.href = href;
  a.download = name;
  a.rel = 'noopener';
  document.body.append(a);
  a.click();
  a.remove();
}
