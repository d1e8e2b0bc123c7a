// Labels as the folder list shows them (issue 29 §4): each label with its unread and total message counts and
// its colour (label_colours, migration 0038), kept only here. Renaming and deleting change mail on the server
// and can be undone, so they are mail actions (undo.ts renameLabel, deleteLabel).

import type { LabelColour, LabelOverview } from '../../../shared/contract/labels.ts';
import { labelColours } from '../../../shared/contract/limits.ts';
import type { Db } from '../../db/open.ts';
import { MailError } from '../mail-error.ts';

export function prepareLabelsAdmin(db: Db) {
  const overview = db.prepare<[], LabelOverview>(
    `SELECT l.id, l.name, c.colour,
            (SELECT count(*) FROM message_labels ml JOIN messages m ON m.id = ml.message_id
              WHERE ml.label_id = l.id AND m.unread = 1) AS unread,
            (SELECT count(*) FROM message_labels WHERE label_id = l.id) AS total,
            (SELECT count(DISTINCT m.thread_id) FROM message_labels ml JOIN messages m ON m.id = ml.message_id
              WHERE ml.label_id = l.id) AS threads
       FROM labels l LEFT JOIN label_colours c ON c.label_id = l.id
      ORDER BY l.name COLLATE NOCASE`,
  );
  const exists = db.prepare<[number]>('SELECT 1 FROM labels WHERE id = ?').pluck();
  const setColour = db.prepare<[number, string]>(
    'INSERT INTO label_colours (label_id, colour) VALUES (?, ?) ON CONFLICT (label_id) DO UPDATE SET colour = excluded.colour',
  );
  const clearColour = db.prepare<[number]>('DELETE FROM label_colours WHERE label_id = ?');

  const mustExist = (id: number) => {
    if (!exists.get(id)) throw new MailError('not_found', 'That label no longer exists.');
  };

  const ofThreads = db.prepare<[string], { threadId: number; name: string; colour: LabelColour | null }>(
    `SELECT DISTINCT m.thread_id AS threadId, l.name, c.colour
       FROM messages m JOIN message_labels ml ON ml.message_id = m.id JOIN labels l ON l.id = ml.label_id
       LEFT JOIN label_colours c ON c.label_id = l.id
      WHERE m.thread_id IN (SELECT value FROM json_each(?))
      ORDER BY m.thread_id, l.name COLLATE NOCASE`,
  );

  return {
    overview: (): LabelOverview[] => overview.all(),

    /** Each asked conversation with the labels its messages carry (none: an empty list). */
    ofThreads(threads: readonly number[]) {
      const by = new Map<number, { name: string; colour: LabelColour | null }[]>(threads.map((t) => [t, []]));
      for (const r of ofThreads.all(JSON.stringify(threads)))
        by.get(r.threadId)?.push({ name: r.name, colour: r.colour });
      return [...by].map(([threadId, labels]) => ({ threadId, labels }));
    },

    setColour(id: number, colour: LabelColour | null): void {
      mustExist(id);
      if (colour === null) clearColour.run(id);
      else if (!(labelColours as readonly string[]).includes(colour))
        throw new MailError('invalid', `“${colour}” is not one of the label colours.`);
      else setColour.run(id, colour);
    },
  };
}
