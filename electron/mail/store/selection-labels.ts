// What the label picker shows for a selection (issue 16, DESIGN §11 "Several at once"): every label, with how
// many of the selected conversations carry it. A read over the whole selection (a search's: every conversation
// that matches, 40–50 ms at 20,000 messages), so the long-running app asks it of the read thread (reads/).
import type { Folder, SelectionLabel, ThreadSelection } from '../../../shared/contract/index.ts';
import type { Db } from '../../db/open.ts';
import type { ReadCheck } from './search.ts';
import { prepareSelection } from './selection.ts';

export function prepareSelectionLabels(db: Db, folders: () => Folder[]) {
  const resolve = prepareSelection(db, folders);
  const labelCounts = db.prepare<[string], SelectionLabel>(
    `SELECT l.name,
            (SELECT count(DISTINCT m.thread_id) FROM message_labels ml JOIN messages m ON m.id = ml.message_id
              WHERE ml.label_id = l.id AND m.thread_id IN (SELECT value FROM json_each(?))) AS threads
       FROM labels l ORDER BY l.name COLLATE NOCASE`,
  );
  /**
   * An unknown folder is `not_found`, more conversations than one batch may change `invalid_request` (MailError);
   * `check` stops a search scope's reading (selection.ts).
   */
  return (selection: ThreadSelection, check?: ReadCheck): { threads: number; labels: SelectionLabel[] } => {
    const { threads } = resolve(selection, check);
    return { threads: threads.length, labels: labelCounts.all(JSON.stringify(threads)) };
  };
}
