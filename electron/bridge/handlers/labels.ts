// The `label:*` channels (issue 29 §4): the folder list's Labels section and the colours the person picks. A
// change that cannot be made throws MailError, which the one table (bridge/errors.ts) maps.
import type { prepareLabelsAdmin } from '../../mail/store/labels-admin.ts';
import type { Handlers } from '../dispatch.ts';

type LabelChannel = 'label:overview' | 'label:setColour' | 'label:ofThreads';

export function labelHandlers(deps: {
  labels: ReturnType<typeof prepareLabelsAdmin>;
}): Pick<Handlers, LabelChannel> {
  const { labels } = deps;
  return {
    'label:overview': () => labels.overview(),
    'label:ofThreads': (r) => labels.ofThreads(r.threads),
    'label:setColour': (r) => {
      labels.setColour(r.id, r.colour);
      return { ok: true as const };
    },
  };
}
