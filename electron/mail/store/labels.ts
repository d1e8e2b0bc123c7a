// Labels on messages (tables `labels` and `message_labels`, migration 0008). A label name is unique
// without regard to case; a label exists while it is defined, whether or not any message carries it.
import type { Db } from '../../db/open.ts';
import { nextId } from '../../db/retired-ids.ts';
import { MailError } from '../mail-error.ts';

export type LabelView = { id: number; name: string; count: number };

/** A name the person gave a label, trimmed, or a MailError saying why it cannot be one. */
export function validLabelName(raw: string): string {
  const name = raw.trim();
  if (name === '') throw new MailError('invalid', 'A label needs a name.');
  if (name.length > 64) throw new MailError('invalid', 'A label name can be at most 64 characters.');
  // IMAP keywords are atoms: no spaces or specials (RFC 3501 §9 flag-keyword), and this keeps Gmail's too.
  if (/[\s()"\\{%*\]]/u.test(name) || [...name].some((ch) => ch.charCodeAt(0) < 0x20))
    throw new MailError('invalid', 'A label name cannot contain spaces, brackets, quotes or * % \\.');
  return name;
}

export function prepareLabels(db: Db) {
  const list = db.prepare<[], LabelView>(
    `SELECT l.id, l.name, (SELECT count(*) FROM message_labels WHERE label_id = l.id) AS count
       FROM labels l ORDER BY l.name COLLATE NOCASE`,
  );
  const find = db.prepare<[string], { id: number }>('SELECT id FROM labels WHERE name = ?');
  const findNoCase = db.prepare<[string], { id: number }>(
    'SELECT id FROM labels WHERE name = ? COLLATE NOCASE ORDER BY id LIMIT 1',
  );
  const setName = db.prepare<[string, number]>('UPDATE labels SET name = ? WHERE id = ?');
  const nameOf = db.prepare<[number]>('SELECT name FROM labels WHERE id = ?').pluck();
  const add = db.prepare<[string]>(`INSERT INTO labels (id, name) VALUES (${nextId('labels')}, ?)`);
  const attach = db.prepare<[number, number]>(
    'INSERT OR IGNORE INTO message_labels (message_id, label_id) VALUES (?, ?)',
  );
  const detach = db.prepare<[number, number]>(
    'DELETE FROM message_labels WHERE message_id = ? AND label_id = ?',
  );
  const dropUnused = db.prepare<[number, number]>(
    'DELETE FROM labels WHERE id = ? AND NOT EXISTS (SELECT 1 FROM message_labels WHERE label_id = ?)',
  );
  const ofMessage = db.prepare<[number], { name: string }>(
    `SELECT l.name FROM message_labels ml JOIN labels l ON l.id = ml.label_id
      WHERE ml.message_id = ? ORDER BY l.name COLLATE NOCASE`,
  );

  return {
    list: (): LabelView[] => list.all(),
    find: (name: string): number | null => find.get(name)?.id ?? null,
    /** The label of this name in any case (a rename onto it merges the two). */
    findNoCase: (name: string): number | null => findNoCase.get(name)?.id ?? null,
    setName: (id: number, name: string): void => void setName.run(name, id),
    nameOf: (id: number): string => String(nameOf.get(id) ?? ''),
    /** The label's id, creating it when no label has that name yet. */
    ensure(name: string): { id: number; created: boolean } {
      const existing = find.get(name);
      if (existing) return { id: existing.id, created: false };
      return { id: Number(add.run(name).lastInsertRowid), created: true };
    },
    /** Whether the message did not carry the label before. */
    attach: (messageId: number, labelId: number): boolean => attach.run(messageId, labelId).changes > 0,
    /** Whether the message carried the label before. */
    detach: (messageId: number, labelId: number): boolean => detach.run(messageId, labelId).changes > 0,
    /** Deletes the label unless some message still carries it. */
    dropIfUnused: (labelId: number): void => {
      dropUnused.run(labelId, labelId);
    },
    namesOf: (messageId: number): string[] => ofMessage.all(messageId).map((r) => r.name),
  };
}
