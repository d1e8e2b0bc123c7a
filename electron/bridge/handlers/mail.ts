// `mail:undo` over the bridge: the newest `count` actions, or exactly the one the page names by id (the Undo
// bar's). An id that is unknown or already undone is said plainly, never a silent no-op.

import type { prepareMailActions } from '../../mail/store/undo.ts';
import type { Handlers } from '../dispatch.ts';

export function undoHandler(actions: ReturnType<typeof prepareMailActions>): Handlers['mail:undo'] {
  return (r) => {
    if ('count' in r) return { undone: actions.undo(r.count) };
    // An unknown id is `not_found`, one undone already `invalid_request` (MailError, bridge/errors.ts).
    return { undone: [actions.undoOne(r.id)] };
  };
}
