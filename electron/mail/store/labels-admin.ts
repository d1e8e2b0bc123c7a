// Labels as the folder list shows and the person manages them (issue 29 §4): each label with its unread and
// total message counts and its colour (label_colours, migration 0038), and renaming, recolouring and deleting
// on the store side. Writing a rename or a delete back to the server is the caller's (write-back.ts queues a
// keyword or X-GM-LABELS change per message); this module only reports which messages changed.

import type { LabelColour, LabelOverview } from '../../../shared/contract/labels.ts';
import { labelColours } from '../../../shared/contract/limits.ts';
import type { Db } from '../../db/open.ts';
import { MailError } from '../mail-error.ts';
import { prepareLabels } from './labels.ts';

export function prepareLabelsAdmin(db: Db) {
  const labels = prepareLabels(db);
  const overview = db.prepare<[], LabelOverview>(
    `SELECT l.id, l.name, c.colour,
            (SELECT count(*) FROM message_labels ml JOIN messages m ON m.id = ml.message_id
              WHERE ml.label_id = l.id AND m.unread = 1) AS unread,
            (SELECT count(*) FROM message_labels WHERE label_id = l.id) AS total
       FROM labels l LEFT JOIN label_colours c ON c.label_id = l.id
      ORDER BY l.name COLLATE NOCASE`,
  );
  const exists = db.prepare<[number]>('SELECT 1 FROM labels WHERE id = ?').pluck();
  const findNoCase = db.prepare<[string], { id: number }>(
    'SELECT id FROM labels WHERE name = ? COLLATE NOCASE',
  );
  const setName = db.prepare<[string, number]>('UPDATE labels SET name = ? WHERE id = ?');
  const setColour = db.prepare<[number, string]>(
    'INSERT INTO label_colours (label_id, colour) VALUES (?, ?) ON CONFLICT (label_id) DO UPDATE SET colour = excluded.colour',
  );
  const clearColour = db.prepare<[number]>('DELETE FROM label_colours WHERE label_id = ?');
  const messagesOf = db.prepare<[number]>('SELECT message_id FROM message_labels WHERE label_id = ?').pluck();
  // A rename onto a label that already exists merges the two: the messages move over, the old label goes.
  const moveOver = db.prepare<[number, number]>(
    'INSERT OR IGNORE INTO message_labels (message_id, label_id) SELECT message_id, ? FROM message_labels WHERE label_id = ?',
  );
  const drop = db.prepare<[number]>('DELETE FROM labels WHERE id = ?');

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

    /**
     * Renames a label; onto another label's name (in any case) it merges into that label. Returns the label the
     * messages now carry and the messages whose labels changed on the server's side (old name off, new name on).
     */
    rename: db.transaction(
      (id: number, newName: string): { id: number; merged: boolean; messages: number[] } => {
        mustExist(id);
        const name = newName.trim();
        if (name === '') throw new MailError('invalid', 'A label needs a name.');
        // IMAP keywords are atoms: no spaces or specials (RFC 3501 §9 flag-keyword), and this keeps Gmail's too.
        if (/[\s()"\\{%*\]]/u.test(name) || [...name].some((ch) => ch.charCodeAt(0) < 0x20))
          throw new MailError('invalid', 'A label name cannot contain spaces, brackets, quotes or * % \\.');
        const messages = messagesOf.all(id) as number[];
        const other = findNoCase.get(name);
        if (other && other.id !== id) {
          moveOver.run(other.id, id);
          drop.run(id);
          return { id: other.id, merged: true, messages };
        }
        setName.run(name, id);
        return { id, merged: false, messages };
      },
    ),

    /** Deletes a label from every message; returns the messages that carried it (to write back and to undo). */
    remove: db.transaction((id: number): { name: string; colour: LabelColour | null; messages: number[] } => {
      mustExist(id);
      const row = overview.all().find((l) => l.id === id);
      const messages = messagesOf.all(id) as number[];
      drop.run(id);
      return { name: row?.name ?? labels.nameOf(id), colour: row?.colour ?? null, messages };
    }),
  };
}
