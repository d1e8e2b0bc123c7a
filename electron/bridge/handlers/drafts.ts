// The drafts and outbox channels of the bridge: drafts are kept, sent into the outbox, discarded; the outbox
// lists what waits to go out, and its Undo, Retry and Dismiss (drafts.ts, outbox.ts).
import type { prepareDrafts } from '../../mail/send/drafts.ts';
import type { Outbox } from '../../mail/send/outbox.ts';
import type { Handlers } from '../dispatch.ts';

type Deps = { drafts: ReturnType<typeof prepareDrafts>; outbox: Outbox };

export function draftHandlers({
  drafts,
  outbox,
}: Deps): Pick<
  Handlers,
  | 'draft:list'
  | 'draft:save'
  | 'draft:send'
  | 'draft:discard'
  | 'outbox:list'
  | 'outbox:cancel'
  | 'outbox:retry'
  | 'outbox:dismiss'
> {
  return {
    'draft:list': () => drafts.list(),
    'draft:save': (r) => drafts.save(r),
    'draft:send': (r) => drafts.send(r.id),
    'draft:discard': (r) => ({ discarded: drafts.discard(r.id) }),
    'outbox:list': () => outbox.list(),
    // Undo gives the message back as a draft (drafts.ts), whoever sent it.
    'outbox:cancel': (r) => drafts.undoSend(r.id),
    'outbox:retry': (r) => ({ queued: outbox.retry(r.id) }),
    'outbox:dismiss': (r) => ({ draft: drafts.fromOutbox(r.id) }),
  };
}
