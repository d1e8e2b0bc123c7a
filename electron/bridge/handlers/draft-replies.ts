// "Draft reply" (issue 17): the page names the message answered, never its text; the reply is written by the
// model from the thread (ai/grounded/draft-reply.ts), checked, and made into a reply draft as draft:new makes one
// (the recipients from the headers, the model's text above the signature and quote), kept local until the user
// saves it. Sent on a stream; Stop is run:cancel; a failure or a Stop stores no draft.
import type { StreamEvent } from '../../../shared/contract/index.ts';
import type { prepareDraftAssists } from '../../ai/grounded/draft-assists.ts';
import { draftReply } from '../../ai/grounded/draft-reply.ts';
import { connectForMail, splitModelRef } from '../../ai/model-access.ts';
import type { prepareModelChoices } from '../../ai/model-choices.ts';
import { AiFailure } from '../../ai/protocol/errors.ts';
import type { prepareServices } from '../../ai/services.ts';
import type { Log } from '../../log.ts';
import { draftOf, type prepareAnswers } from '../../mail/send/answer.ts';
import type { prepareDrafts } from '../../mail/send/drafts.ts';
import type { ReadFn } from '../../reads/reads.ts';
import type { Handlers } from '../dispatch.ts';
import { streamFailure } from '../stream-failure.ts';
import type { StreamHub } from '../streams.ts';

type Deps = {
  services: ReturnType<typeof prepareServices>;
  modelChoices: ReturnType<typeof prepareModelChoices>;
  drafts: ReturnType<typeof prepareDrafts>;
  answers: ReturnType<typeof prepareAnswers>;
  assists: ReturnType<typeof prepareDraftAssists>;
  streams: StreamHub;
  log: Log;
  /** The thread and examples a reply reads: on the read thread in the long-running app (reads/). */
  replyRequest: ReadFn<'replyRequest'>;
};

export function draftReplyHandlers(deps: Deps): Pick<Handlers, 'draft:aiReply' | 'draft:assist'> {
  return {
    'draft:aiReply': async (r) => {
      // Thrown before any stream: no model chosen, a malformed one, or a message that is not there.
      const modelRef = deps.modelChoices.modelFor('summary', r.model);
      splitModelRef(modelRef);
      const request = await deps.replyRequest(r.message, r.instructions);
      const controller = new AbortController();
      const streamId = deps.streams.start(() => controller.abort());
      const emit = (e: StreamEvent) => deps.streams.emit(streamId, e, true);
      setImmediate(async () => {
        try {
          // SECURITY: the thread and your own mails go to a service off this computer only with your consent.
          const { model, connection } = await connectForMail(deps.services, modelRef);
          const drafted = await draftReply(connection, model, request, { signal: controller.signal });
          // A Stop that came as the answer did stores nothing.
          if (controller.signal.aborted) throw new AiFailure('cancelled');
          const kind = r.all ? 'all' : 'reply';
          const made = deps.answers.compose(r.message, kind, drafted.text);
          // SECURITY: nothing reaches the server's Drafts folder until the user saves this draft (issue 17).
          const draft = deps.drafts.create(draftOf(made, kind, []), { local: true });
          const { text: _, ...checked } = drafted;
          const { unverified: __, ...assist } = checked;
          deps.assists.keep(draft.id, assist);
          emit({ type: 'draft_reply_done', result: { draft, ...checked } });
        } catch (e) {
          emit(streamFailure(e, deps.log, 'draft_ai_reply'));
        }
      });
      return { streamId };
    },
    'draft:assist': (r) => deps.assists.of(r.id),
  };
}
