import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, expect, test } from 'vitest';
import { eml, tempDir } from '../../../test/support/temp.ts';
import { type Db, openDatabase } from '../../db/open.ts';
import { runImport } from '../import/import-run.ts';
import { MailError } from '../mail-error.ts';
import { prepareLabels } from './labels.ts';
import { prepareLabelsAdmin } from './labels-admin.ts';

let db: Db;
let ids: number[];

beforeEach(async () => {
  const dir = tempDir();
  for (const n of [1, 2, 3])
    writeFileSync(join(dir, `${n}.eml`), eml({ id: `<${n}@x>`, subject: `Message ${n}` }));
  db = openDatabase(join(dir, 'skimmer.db'));
  await runImport(db, [dir], { onProgress: () => {}, isCancelled: () => false });
  ids = db.prepare('SELECT id FROM messages ORDER BY id').pluck().all() as number[];
  const labels = prepareLabels(db);
  const work = labels.ensure('Work').id;
  const later = labels.ensure('later').id;
  for (const id of ids) labels.attach(id, work);
  labels.attach(ids[0] as number, later);
  db.prepare('UPDATE messages SET unread = 0 WHERE id = ?').run(ids[1]);
});

const byName = (admin: ReturnType<typeof prepareLabelsAdmin>) =>
  Object.fromEntries(admin.overview().map((l) => [l.name, l]));

test('each label shows its unread and total messages, sorted without regard to case', () => {
  const admin = prepareLabelsAdmin(db);
  expect(admin.overview().map((l) => [l.name, l.unread, l.total, l.colour])).toEqual([
    ['later', 1, 1, null],
    ['Work', 2, 3, null],
  ]);
});

test('a colour is kept, changed and cleared; a colour outside the palette is refused', () => {
  const admin = prepareLabelsAdmin(db);
  const work = byName(admin).Work?.id as number;
  admin.setColour(work, 'teal');
  expect(byName(prepareLabelsAdmin(db)).Work?.colour).toBe('teal');
  admin.setColour(work, 'red');
  expect(byName(admin).Work?.colour).toBe('red');
  admin.setColour(work, null);
  expect(byName(admin).Work?.colour).toBeNull();
  expect(() => admin.setColour(work, '#ff0000' as never)).toThrow(/not one of the label colours/);
});

test('a rename keeps the messages and the colour, and reports the messages to write back', () => {
  const admin = prepareLabelsAdmin(db);
  const work = byName(admin).Work?.id as number;
  admin.setColour(work, 'blue');
  const result = admin.rename(work, 'Projects');
  expect(result).toEqual({ id: work, merged: false, messages: [...ids].sort((a, b) => a - b) });
  expect(byName(admin).Projects).toMatchObject({ total: 3, colour: 'blue' });
  expect(byName(admin).Work).toBeUndefined();
});

test('a rename onto an existing name (any case) merges into that label', () => {
  const admin = prepareLabelsAdmin(db);
  const later = byName(admin).later?.id as number;
  const work = byName(admin).Work?.id as number;
  const result = admin.rename(later, 'WORK');
  expect(result).toMatchObject({ id: work, merged: true, messages: [ids[0]] });
  expect(admin.overview().map((l) => [l.name, l.total])).toEqual([['Work', 3]]);
});

test('bad names and missing labels are refused in sentences', () => {
  const admin = prepareLabelsAdmin(db);
  const work = byName(admin).Work?.id as number;
  expect(() => admin.rename(work, '   ')).toThrow('A label needs a name.');
  expect(() => admin.rename(work, 'two words')).toThrow(/cannot contain spaces/);
  expect(() => admin.rename(9999, 'x')).toThrow(MailError);
  expect(() => admin.setColour(9999, 'red')).toThrow('That label no longer exists.');
  expect(byName(admin).Work?.total).toBe(3);
});

test('deleting a label takes it off every message and says what it had, for an undo', () => {
  const admin = prepareLabelsAdmin(db);
  const work = byName(admin).Work?.id as number;
  admin.setColour(work, 'green');
  const removed = admin.remove(work);
  expect(removed).toEqual({ name: 'Work', colour: 'green', messages: [...ids].sort((a, b) => a - b) });
  expect(admin.overview().map((l) => l.name)).toEqual(['later']);
  expect(db.prepare('SELECT count(*) FROM label_colours').pluck().get()).toBe(0);
});
