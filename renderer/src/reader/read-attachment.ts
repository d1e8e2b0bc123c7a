// The bytes a preview shows (issue 29 §1): read from the main process a bounded range at a time
// (`attachment:read`), up to a bound the caller gives. A file past the bound is not read on (its size is said
// and Save offered); a text is read to its bound and shown cut.
import { attachmentReadBytes } from '../../../shared/contract/limits.ts';
import { bridge } from '../bridge.ts';

export type Read =
  | { ok: true; bytes: Uint8Array<ArrayBuffer>; total: number; cut: boolean }
  | { ok: false; error: string }
  | { ok: false; tooLarge: number };

/** Up to `maxBytes` of attachment `index`; `whole` refuses a file larger than that instead of cutting it. */
export async function readAttachment(
  message: number,
  index: number,
  maxBytes: number,
  whole: boolean,
  signal?: AbortSignal,
): Promise<Read | null> {
  const chunks: Uint8Array[] = [];
  let offset = 0;
  let total = Number.POSITIVE_INFINITY;
  while (offset < Math.min(total, maxBytes)) {
    if (signal?.aborted) return null;
    const length = Math.min(attachmentReadBytes, maxBytes - offset);
    const reply = await bridge['attachment:read']({ message, index, offset, length });
    if (!reply.ok) return { ok: false, error: reply.error.message };
    total = reply.value.total;
    if (whole && total > maxBytes) return { ok: false, tooLarge: total };
    const bytes = Uint8Array.from(atob(reply.value.data), (c) => c.charCodeAt(0));
    if (bytes.length === 0) break;
    chunks.push(bytes);
    offset += bytes.length;
  }
  const bytes = new Uint8Array(offset);
  let at = 0;
  for (const c of chunks) {
    bytes.set(c, at);
    at += c.length;
  }
  return { ok: true, bytes, total: Number.isFinite(total) ? total : offset, cut: offset < total };
}
