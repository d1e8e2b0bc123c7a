// The `attachment:*` channels (issue 29 §1): a message's attachments, and their bytes a bounded range at a time,
// read where the message lives (mail/attachments/attachment-bytes.ts). What cannot be read throws
// AttachmentError, which the one table (bridge/errors.ts) maps.
import type { AttachmentBytes, AttachmentReader } from '../../mail/attachments/attachment-bytes.ts';
import { createPartCache } from '../../mail/attachments/part-cache.ts';
import type { Handlers } from '../dispatch.ts';

type AttachmentChannel = 'attachment:list' | 'attachment:read';

export function attachmentHandlers(deps: { files: AttachmentReader }): Pick<Handlers, AttachmentChannel> {
  const { files } = deps;
  const cache = createPartCache<AttachmentBytes>();
  return {
    'attachment:list': (r) => files.list(r.message),
    'attachment:read': async (r) => {
      const key = `${r.message}:${r.index}`;
      let part = cache.get(key);
      if (!part) {
        [part] = await files.read(r.message, [r.index]);
        if (part) cache.put(key, part);
      }
      const content = (part as AttachmentBytes).content;
      const offset = Math.min(r.offset, content.length);
      return {
        name: (part as AttachmentBytes).name,
        contentType: (part as AttachmentBytes).contentType,
        total: content.length,
        offset,
        data: content.subarray(offset, offset + r.length).toString('base64'),
      };
    },
  };
}
