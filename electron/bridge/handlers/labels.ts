// The `label:*` channels (issue 29 §4): the folder list's Labels section and the colours the person picks; a
// rename or a delete is a mail action (undo.ts), undoable and written back to the server. A change that cannot
// be made throws MailError, which the one table (bridge/errors.ts) maps.
import type { prepareLabelsAdmin } from '../../mail/store/labels-admin.ts';
import type { prepareMailActions } from '../../mail/store/undo.ts';
import type { Handlers } from '../dispatch.ts';

type LabelChannel =
  | 'label:overview'
  | 'label:setColour'
  | 'label:ofThreads'
  | 'label:rename'
  | 'label:delete';

export function labelHandlers(deps: {
  labels: ReturnType<typeof prepareLabelsAdmin>;
  actions: Pick<ReturnType<typeof prepareMailActions>, 'renameLabel' | 'deleteLabel'>;
}): Pick<Handlers, LabelChannel> {
  const { labels, actions } = deps;
  return {
    'label:overview': () => labels.overview(),
    'label:ofThreads': (r) => labels.ofThreads(r.threads),
    'label:setColour': (r) => {
      labels.setColour(r.id, r.colour);
      return { ok: true as const };
    },
    'label:rename': (r) => actions.renameLabel(r.id, r.name),
    'label:delete': (r) => actions.deleteLabel(r.id),
  };
}
