// The `attachment:*` channels (issue 29 §1): a message's attachments, and their bytes a bounded range at a time,
// read where the message lives (mail/attachments/attachment-bytes.ts, through the one cache of
// attachment-store.ts); in the desktop app also Save (the system's save dialog), Save all (its folder dialog)
// and Open (the system's application, open-attachment.ts). What cannot be read throws AttachmentError, which the
// one table (bridge/errors.ts) maps.
import { distinctNames, safeFileName } from '../../../shared/safe-file-name.ts';
import type { AttachmentStore } from '../../mail/attachments/attachment-store.ts';
import { type OpenPath, openAttachment } from '../../mail/attachments/open-attachment.ts';
import { saveAt, saveInto } from '../../mail/attachments/save.ts';
import type { Handlers } from '../dispatch.ts';

type AttachmentChannel =
  | 'attachment:list'
  | 'attachment:read'
  | 'attachment:save'
  | 'attachment:save-all'
  | 'attachment:open';

/** The desktop shell's dialogs and opener (main.ts); browser mode and the CLI have none. */
export type AttachmentShell = {
  /** The system's save dialog, suggesting `name`: the path chosen, or null when cancelled. */
  saveAs(name: string): Promise<string | null>;
  /** The system's folder dialog: the folder chosen, or null when cancelled. */
  chooseFolder(): Promise<string | null>;
  openPath: OpenPath;
};

export function attachmentHandlers(deps: {
  files: AttachmentStore;
  shell?: AttachmentShell | undefined;
}): Pick<Handlers, AttachmentChannel> {
  const { files, shell } = deps;
  return {
    'attachment:list': (r) => files.list(r.message),
    'attachment:read': async (r) => {
      const part = await files.one(r.message, r.index);
      const offset = Math.min(r.offset, part.content.length);
      return {
        name: part.name,
        contentType: part.contentType,
        total: part.content.length,
        offset,
        data: part.content.subarray(offset, offset + r.length).toString('base64'),
      };
    },
    'attachment:save': async (r) => {
      if (!shell) return { available: false, saved: null };
      const part = await files.one(r.message, r.index);
      const path = await shell.saveAs(safeFileName(part.name, `attachment-${r.index + 1}`));
      if (path === null) return { available: true, saved: null };
      await saveAt(path, part.content);
      return { available: true, saved: path };
    },
    'attachment:save-all': async (r) => {
      if (!shell) return { available: false, folder: null, saved: 0 };
      const list = files.list(r.message);
      const folder = list.length === 0 ? null : await shell.chooseFolder();
      if (folder === null) return { available: true, folder: null, saved: 0 };
      // One at a time: a message's attachments are never all held at once beyond what the cache keeps.
      const names = distinctNames(list.map((a) => a.name));
      for (const a of list) {
        const part = await files.one(r.message, a.index);
        await saveInto(folder, names[a.index] as string, part.content);
      }
      return { available: true, folder, saved: list.length };
    },
    'attachment:open': async (r) => {
      if (!shell) return { available: false, opened: false, warning: null };
      const part = await files.one(r.message, r.index);
      const { opened, warning } = await openAttachment(part, r.confirmed, shell.openPath);
      return { available: true, opened: opened !== null, warning };
    },
  };
}
