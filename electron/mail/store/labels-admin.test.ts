import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, expect, test } from 'vitest';
import { eml, tempDir } from '../../../test/support/temp.ts';
import { type Db, openDatabase } from '../../db/open.ts';
import { runImport } from '../import/import-run.ts';
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

test('a missing label is refused in a sentence', () => {
  expect(() => prepareLabelsAdmin(db).setColour(9999, 'red')).toThrow('That label no longer exists.');
});
