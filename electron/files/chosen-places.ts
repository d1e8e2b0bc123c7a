// The paths the desktop's own open dialog returned (DESIGN §13, "Files the user names"). SECURITY: the user's
// places guard what the renderer names, since hostile content may have chosen it; a path the person picked in the
// system's dialog, which main.ts showed and the renderer never touched, was chosen by them as a path typed at the
// shell is (issue 27: `/srv/mail` or `/var/mail/$USER` picked in the dialog was refused). So such a path, and what
// lies under a folder picked, joins the places for the rest of the session. Every other part of the rule still
// holds for it: never under /proc, /sys or /dev, never the data folder, regular files only, bounded reads.
import { realpathSync } from 'node:fs';
import type { Places } from './safe-open.ts';

export type ChosenPlaces = {
  /** The user's places, with every path the dialog returned this session. */
  places: Places;
  /** Records what the system dialog returned (main.ts), by its real path. */
  choose(paths: readonly string[]): void;
};

export function chosenPlaces(base: Places): ChosenPlaces {
  const chosen = new Set<string>();
  return {
    places: {
      get roots() {
        return [...base.roots, ...chosen];
      },
      excluded: base.excluded,
    },
    choose(paths) {
      for (const path of paths) {
        try {
          chosen.add(realpathSync(path));
        } catch {
          // Gone since the dialog closed: nothing to open there.
        }
      }
    },
  };
}
