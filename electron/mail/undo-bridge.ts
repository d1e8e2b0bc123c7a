// `mail:undo` over the bridge: the newest `count` actions, or exactly the one the page names by id (the Undo
// bar's). An id that is unknown or already undone is said plainly, never a silent no-op.
import type { Handlers } from '../bridge/dispatch.ts';
import { BridgeFailure } from '../bridge/errors.ts';
import { type prepareMailActions, UndoRefused } from './undo.ts';

export function undoHandler(actions: ReturnType<typeof prepareMailActions>): Handlers['mail:undo'] {
  return (r) => {
    if ('count' in r) return { undone: actions.undo(r.count) };
    try {
      return { undone: [actions.undoOne(r.id)] };
    } catch (e) {
      if (!(e instanceof UndoRefused)) throw e;
      throw new BridgeFailure(e.reason === 'not_found' ? 'not_found' : 'invalid_request', e.message);
    }
  };
}
