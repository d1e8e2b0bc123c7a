// The drafts and outbox channels of the bridge: drafts are kept, sent into the outbox, discarded; the outbox
// lists what waits to go out, and its Undo, Retry and Dismiss (drafts.ts, outbox.ts).
import { addressKey } from '../../../shared/mail-address.ts';
import type { prepareAnswers } from '../../mail/send/answer.ts';
import type { prepareDrafts } from '../../mail/send/drafts.ts';
import type { Outbox } from '../../mail/send/outbox.ts';
import type { Handlers } from '../dispatch.ts';

type Deps = {
  drafts: ReturnType<typeof prepareDrafts>;
  answers: ReturnType<typeof prepareAnswers>;
  outbox: Outbox;
};

export function draftHandlers({
  drafts,
  answers,
  outbox,
}: Deps): Pick<
  Handlers,
  | 'draft:list'
  | 'draft:new'
  | 'draft:show'
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
    'draft:new': (r) => {
      if (r.kind === 'blank') return drafts.create({ ...r, inReplyTo: null });
      const made = answers.compose(r.message, r.kind, r.body);
      // A reply's recipients are the composition's; a forward's are the ones given.
      const to = r.kind === 'forward' ? r.to : made.to.map((a) => a.address);
      const seen = new Set(to.map(addressKey));
      return drafts.create({
        to,
        cc: made.cc.map((a) => a.address).filter((a) => !seen.has(addressKey(a))),
        subject: made.subject,
        body: made.body,
        inReplyTo: r.kind === 'forward' ? null : made.original,
      });
    },
    'draft:show': (r) => drafts.show(r.id),
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
