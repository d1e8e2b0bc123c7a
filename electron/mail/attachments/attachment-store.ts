// The one way the app reads an attachment's bytes (issue 29 §1): the bridge's ranges, the browser mode's
// download, the desktop's save and open all ask here, so a part read from its file or its IMAP server once is
// held in one bounded cache (part-cache.ts) for the next range, the preview's next page, or the save that
// follows a preview.
import type { AttachmentBytes, AttachmentReader } from './attachment-bytes.ts';
import { createPartCache } from './part-cache.ts';

export function attachmentStore(files: AttachmentReader, maxBytes?: number) {
  const cache = createPartCache<AttachmentBytes>(maxBytes);
  return {
    list: files.list,
    /** Attachment `index` of `message`, whole, from the cache or from where the message lives. */
    async one(message: number, index: number): Promise<AttachmentBytes> {
      const key = `${message}:${index}`;
      const held = cache.get(key);
      if (held) return held;
      const [part] = await files.read(message, [index]);
      const got = part as AttachmentBytes;
      cache.put(key, got);
      return got;
    },
  };
}

export type AttachmentStore = ReturnType<typeof attachmentStore>;
