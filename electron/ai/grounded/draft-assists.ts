// A drafted reply's citations and facts (issue 17), kept with its draft (migration 0033): what the composer shows
// beside the body, read back when the draft is opened again. The row goes with the draft (ON DELETE CASCADE).
// Written only by the draft:aiReply handler, after the draft it describes; read as stored: the citations were
// checked against the thread when the reply was drafted, and the composer checks the body against `known` again
// as the user edits it.
import { DraftAssist } from '../../../shared/contract/index.ts';
import type { Db } from '../../db/open.ts';

export function prepareDraftAssists(db: Db) {
  const put = db.prepare<[number, string]>(
    'INSERT OR REPLACE INTO draft_assists (draft_id, assist_json) VALUES (?, ?)',
  );
  const get = db.prepare<[number]>('SELECT assist_json FROM draft_assists WHERE draft_id = ?').pluck();
  return {
    keep(draftId: number, assist: DraftAssist): void {
      put.run(draftId, JSON.stringify(assist));
    },
    /** The draft's, or null: a draft the user wrote, one whose row is gone, or one that no longer reads. */
    of(draftId: number): DraftAssist | null {
      const json = get.get(draftId) as string | undefined;
      if (json === undefined) return null;
      const read = DraftAssist.safeParse(JSON.parse(json));
      return read.success ? read.data : null;
    },
  };
}
