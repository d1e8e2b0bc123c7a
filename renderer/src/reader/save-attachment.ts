// Save on an attachment chip (issue 29 §1): its bytes read from the main process a bounded range at a time
// (`attachment:read`), then handed to the browser as a download under a safe name (shared/safe-file-name.ts).
import { attachmentReadBytes } from '../../../shared/contract/limits.ts';
import { safeFileName } from '../../../shared/safe-file-name.ts';
import { bridge } from '../bridge.ts';

/** Reads attachment `index` of `message` whole and offers it as a download; the error's sentence, or null. */
export async function saveAttachment(
  message: number,
  index: number,
  signal?: AbortSignal,
): Promise<string | null> {
  const chunks: Uint8Array<ArrayBuffer>[] = [];
  let offset = 0;
  let total = Number.POSITIVE_INFINITY;
  let name = '';
  while (offset < total) {
    if (signal?.aborted) return null;
    const reply = await bridge['attachment:read']({ message, index, offset, length: attachmentReadBytes });
    if (!reply.ok) return reply.error.message;
    const bytes = Uint8Array.from(atob(reply.value.data), (c) => c.charCodeAt(0));
    ({ total, name } = reply.value);
    chunks.push(bytes);
    if (bytes.length === 0) break;
    offset += bytes.length;
  }
  offerDownload(chunks, safeFileName(name, `attachment-${index + 1}`));
  return null;
}

/**
 * Hands bytes to the browser as a download named `name` (made safe by the caller).
 * SECURITY: the download is typed application/octet-stream, never the sender's type: a browser must not open an
 * HTML or SVG attachment as a page of Skimmer's origin.
 */
export function offerDownload(chunks: Uint8Array<ArrayBuffer>[], name: string): void {
  const url = URL.createObjectURL(new Blob(chunks, { type: 'application/octet-stream' }));
  try {
    const a = document.createElement('a');
    a.href = url;
    a.download = name;
    a.rel = 'noopener';
    document.body.append(a);
    a.click();
    a.remove();
  } finally {
    // Revoked after the click has been handled: the download has its own reference by then.
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  }
}
