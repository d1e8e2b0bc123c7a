// A file the user attaches arrives in chunks (draft:attachStart, then draft:attachChunk in order; the bridge's
// frames are bounded, shared/ws-protocol.ts) and is kept in memory until its last byte, then stored with its
// draft in one transaction (drafts.ts attachFile), so a half-sent file never reaches the database. Bounded:
// a few uploads at once, each at most its announced size, each forgotten after a while without a chunk.
// SECURITY: the renderer decides nothing here: every chunk must start exactly where the bytes received end,
// and the bytes must add up to the size announced, else the upload is refused and forgotten.
import { randomBytes } from 'node:crypto';
import { MailError } from '../mail-error.ts';

export type Upload = { draftId: number; name: string; contentType: string; size: number };
export type Uploaded = Upload & { content: Buffer };

type Pending = Upload & { chunks: Buffer[]; received: number; touchedAt: number };

export type UploadLimits = {
  /** Uploads open at once, over every draft and page. */
  concurrent: number;
  /** An upload with no chunk for this long is forgotten. */
  idleMs: number;
};
const defaults: UploadLimits = { concurrent: 4, idleMs: 5 * 60_000 };

export function prepareUploads(limits: UploadLimits = defaults, now: () => number = Date.now) {
  const open = new Map<string, Pending>();

  const expire = () => {
    for (const [id, u] of open) if (now() - u.touchedAt > limits.idleMs) open.delete(id);
  };

  return {
    /** Begins an upload; its id is random, so one page cannot add to another's. */
    start(upload: Upload): string {
      expire();
      if (open.size >= limits.concurrent) {
        throw new MailError(
          'wrong_state',
          `Skimmer takes ${limits.concurrent} files at a time: wait for one to finish, then attach this one.`,
        );
      }
      const id = randomBytes(16).toString('hex');
      open.set(id, { ...upload, chunks: [], received: 0, touchedAt: now() });
      return id;
    },

    /** The bytes pending for a draft (its bound counts them with what it holds). */
    pendingFor: (draftId: number): number =>
      [...open.values()].filter((u) => u.draftId === draftId).reduce((n, u) => n + u.size, 0),

    /** Adds the chunk at `offset`; answers the whole file when it completes the size. */
    chunk(uploadId: string, offset: number, data: Buffer): { received: number; done: Uploaded | null } {
      expire();
      const u = open.get(uploadId);
      if (!u)
        throw new MailError('not_found', 'That upload is not open (it finished, failed or waited too long).');
      if (offset !== u.received) {
        open.delete(uploadId);
        throw new MailError(
          'invalid',
          `The file "${u.name}" arrived out of order (${offset} bytes in, where ${u.received} had arrived): attach it again.`,
        );
      }
      if (u.received + data.length > u.size) {
        open.delete(uploadId);
        throw new MailError(
          'invalid',
          `The file "${u.name}" is bigger than the ${u.size} bytes announced: attach it again.`,
        );
      }
      u.chunks.push(data);
      u.received += data.length;
      u.touchedAt = now();
      if (u.received < u.size) {
        // An empty chunk before the end moves nothing on: refused, or a page could keep an upload open forever.
        if (data.length === 0) {
          open.delete(uploadId);
          throw new MailError('invalid', `The file "${u.name}" stopped before its end: attach it again.`);
        }
        return { received: u.received, done: null };
      }
      open.delete(uploadId);
      const { chunks, received: _, touchedAt: __, ...upload } = u;
      return { received: u.received, done: { ...upload, content: Buffer.concat(chunks, u.size) } };
    },

    /** Forgets every upload of a draft (it was discarded or sent). */
    dropFor(draftId: number): void {
      for (const [id, u] of open) if (u.draftId === draftId) open.delete(id);
    },
  };
}

export type Uploads = ReturnType<typeof prepareUploads>;
