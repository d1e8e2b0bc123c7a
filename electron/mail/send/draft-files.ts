// The files of drafts and outbox messages (DESIGN §11, "Attachments"). Owns `draft_attachments` (migration
// 0029). A file the user attached keeps its bytes here until the message is sent or discarded; a forwarded one
// is only a reference to the original (its message id and its place in the original's attachment list), whose
// bytes are read at send (forwarded.ts). A file belongs to a draft or to an outbox message and moves with it:
// draft:send, Undo and Dismiss move the rows, so nothing attached is lost on the way.
import type { DraftAttachment } from '../../../shared/contract/index.ts';
import type { Db } from '../../db/open.ts';

/** A forwarded attachment, as shared/compose's Composition carries it. */
export type Carried = { message: number; index: number; name: string; contentType: string; size: number };

/** A file of an outbox message as the sender needs it: its bytes, or where to read them. */
export type OutboxFile =
  | { kind: 'file'; name: string; contentType: string; content: Buffer }
  | { kind: 'forwarded'; name: string; contentType: string; message: number; index: number };

type Row = {
  id: number;
  name: string;
  content_type: string;
  size: number;
  message: number | null;
  part_index: number | null;
  content: Buffer | null;
};
const toView = (r: Omit<Row, 'content' | 'part_index'>): DraftAttachment => ({
  id: r.id,
  name: r.name,
  contentType: r.content_type,
  size: r.size,
  origin: r.message === null ? 'file' : 'forwarded',
});

export function prepareDraftFiles(db: Db, now: () => number = Date.now) {
  const ofDraft = db.prepare<[number], Omit<Row, 'content' | 'part_index'>>(
    'SELECT id, name, content_type, size, message FROM draft_attachments WHERE draft_id = ? ORDER BY id',
  );
  const ofOutbox = db.prepare<[number], Row>(
    'SELECT * FROM draft_attachments WHERE outbox_id = ? ORDER BY id',
  );
  const fileBytes = db
    .prepare<[number], number>(
      'SELECT ifnull(sum(size), 0) FROM draft_attachments WHERE draft_id = ? AND content IS NOT NULL',
    )
    .pluck();
  const addFile = db.prepare<[number, string, string, number, Buffer, number]>(
    `INSERT INTO draft_attachments (draft_id, name, content_type, size, content, created_at)
     VALUES (?, ?, ?, ?, ?, ?)`,
  );
  const addCarried = db.prepare<[number, string, string, number, number, number, number]>(
    `INSERT INTO draft_attachments (draft_id, name, content_type, size, message, part_index, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
  );
  const detach = db.prepare<[number, number]>('DELETE FROM draft_attachments WHERE id = ? AND draft_id = ?');
  const toOutbox = db.prepare<[number, number]>(
    'UPDATE draft_attachments SET draft_id = NULL, outbox_id = ? WHERE draft_id = ?',
  );
  const toDraft = db.prepare<[number, number]>(
    'UPDATE draft_attachments SET outbox_id = NULL, draft_id = ? WHERE outbox_id = ?',
  );
  const dropOfOutbox = db.prepare<[number]>('DELETE FROM draft_attachments WHERE outbox_id = ?');
  return {
    ofDraft: (draftId: number): DraftAttachment[] => ofDraft.all(draftId).map(toView),
    /** The bytes of the user's own files on the draft, for the bound on a draft's files. */
    fileBytes: (draftId: number): number => fileBytes.get(draftId) as number,
    addFile(draftId: number, file: { name: string; contentType: string; content: Buffer }): DraftAttachment {
      const id = Number(
        addFile.run(draftId, file.name, file.contentType, file.content.length, file.content, now())
          .lastInsertRowid,
      );
      return {
        id,
        name: file.name,
        contentType: file.contentType,
        size: file.content.length,
        origin: 'file',
      };
    },
    addCarried(draftId: number, carried: readonly Carried[]): void {
      for (const c of carried)
        addCarried.run(draftId, c.name, c.contentType, c.size, c.message, c.index, now());
    },
    detach: (draftId: number, attachmentId: number): boolean => detach.run(attachmentId, draftId).changes > 0,
    /** The draft's files become the outbox message's (the caller's transaction holds it with the queue). */
    moveToOutbox: (draftId: number, outboxId: number): void => void toOutbox.run(outboxId, draftId),
    /** An outbox message going back to the drafts takes its files with it. */
    moveToDraft: (outboxId: number, draftId: number): void => void toDraft.run(draftId, outboxId),
    /** Sent: the files are in the sent message kept for the Sent copy; their rows go. */
    dropOfOutbox: (outboxId: number): void => void dropOfOutbox.run(outboxId),
    ofOutbox: (outboxId: number): OutboxFile[] =>
      ofOutbox.all(outboxId).map((r) =>
        r.content !== null
          ? { kind: 'file', name: r.name, contentType: r.content_type, content: r.content }
          : {
              kind: 'forwarded',
              name: r.name,
              contentType: r.content_type,
              message: r.message as number,
              index: r.part_index as number,
            },
      ),
  };
}
