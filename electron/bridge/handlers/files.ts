// The file-choosing channels of the bridge (DESIGN §13, "Choosing files"): the system's open dialog where there is
// one (the desktop app), and a listing of one of the user's folders for the page's own browser.
import { browseFolder } from '../../files/browse.ts';
import type { PickChoice } from '../../files/open-dialog.ts';
import type { Places } from '../../files/safe-open.ts';
import type { Handlers } from '../dispatch.ts';
import { BridgeFailure } from '../errors.ts';

type Deps = {
  // The user's places without the data folder: the browser lists nothing else.
  places: Places;
  // The desktop app's system dialog (main.ts); browser mode and the CLI have none.
  pickPaths: ((choice: PickChoice) => Promise<string[]>) | undefined;
  /** Records what the dialog returned: the person chose it there, so it may be opened (files/chosen-places.ts). */
  chosen: (paths: readonly string[]) => void;
};

export function fileHandlers(deps: Deps): Pick<Handlers, 'files:pick' | 'files:browse'> {
  let picking = false;
  return {
    'files:pick': async (r) => {
      if (!deps.pickPaths) return { available: false, paths: [] };
      // One system dialog at a time: a second request while one is open is refused, not stacked.
      if (picking) throw new BridgeFailure('busy', 'A file dialog is already open.');
      picking = true;
      try {
        const paths = (await deps.pickPaths(r)).slice(0, 1000);
        deps.chosen(paths);
        return { available: true, paths };
      } finally {
        picking = false;
      }
    },
    'files:browse': (r) => browseFolder(r, deps.places),
  };
}
