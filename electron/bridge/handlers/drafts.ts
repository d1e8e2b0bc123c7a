// The drafts and outbox channels of the bridge: drafts are kept, sent into the outbox, discarded, given files
// (in chunks: uploads.ts) and files taken off; the outbox lists what waits to go out, and its Undo, Retry and
// Dismiss (drafts.ts, outbox.ts).
import { draftOf, type prepareAnswers } from '../../mail/send/answer.ts';
import type { prepareDrafts } from '../../mail/send/drafts.ts';
import type { Outbox } from '../../mail/send/outbox.ts';
import type { Uploads } from '../../mail/send/uploads.ts';
import type { Handlers } from '../dispatch.ts';

type Deps = {
  drafts: ReturnType<typeof prepareDrafts>;
  answers: ReturnType<typeof prepareAnswers>;
  outbox: Outbox;
  uploads: Uploads;
};

export function draftHandlers({
  drafts,
  answers,
  outbox,
  uploads,
}: Deps): Pick<
  Handlers,
  | 'draft:list'
  | 'draft:new'
  | 'draft:show'
  | 'draft:save'
  | 'draft:attachStart'
  | 'draft:attachChunk'
  | 'draft:detach'
  | 'draft:send'
  | 'draft:discard'
  | 'outbox:list'
  | 'outbox:cancel'
  | 'outbox:retry'
  | 'outbox:dismiss'
> {
  return {
    'draft:list': () => drafts.list(),
    'draft:new': (r) => {
      const local = { local: r.unwritten };
      if (r.kind === 'blank') {
        const { unwritten: _, ...blank } = r;
        return drafts.create({ ...blank, inReplyTo: null }, local);
      }
      return drafts.create(draftOf(answers.compose(r.message, r.kind, r.body), r.kind, r.to), local);
    },
    'draft:show': (r) => drafts.show(r.id),
    'draft:save': (r) => drafts.save(r),
    'draft:attachStart': (r) => {
      drafts.checkRoom(r.draftId, r.size, uploads.pendingFor(r.draftId));
      return { uploadId: uploads.start(r) };
    },
    'draft:attachChunk': (r) => {
      const { received, done } = uploads.chunk(r.uploadId, r.offset, Buffer.from(r.data, 'base64'));
      if (done === null) return { received, attachment: null };
      const { draftId, ...file } = done;
      return { received, attachment: drafts.attachFile(draftId, file) };
    },
    'draft:detach': (r) => drafts.detach(r.draftId, r.attachmentId),
    // A file still arriving for a draft that left is forgotten with it.
    'draft:send': (r) => {
      const item = drafts.send(r.id);
      uploads.dropFor(r.id);
      return item;
    },
    'draft:discard': (r) => {
      const discarded = drafts.discard(r.id);
      uploads.dropFor(r.id);
      return { discarded };
    },
    'outbox:list': () => outbox.list(),
    // Undo gives the message back as a draft (drafts.ts), whoever sent it.
    'outbox:cancel': (r) => drafts.undoSend(r.id),
    'outbox:retry': (r) => ({ queued: outbox.retry(r.id) }),
    'outbox:dismiss': (r) => ({ draft: drafts.fromOutbox(r.id) }),
  };
}
