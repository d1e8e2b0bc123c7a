// Renaming and deleting a label as mail actions (issue 29 §4): the messages keep it under the new name (its colour
// too), a rename onto another label merges the two, and one Undo entry puts the old label back as it was.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, expect, test } from 'vitest';
import { eml, tempDir } from '../../../test/support/temp.ts';
import { type Db, openDatabase } from '../../db/open.ts';
import { runImport } from '../import/import-run.ts';
import { MailError } from '../mail-error.ts';
import { prepareLabels } from './labels.ts';
import { prepareLabelsAdmin } from './labels-admin.ts';
import { prepareMailActions } from './undo.ts';

let db: Db;
let ids: number[];
let actions: ReturnType<typeof prepareMailActions>;

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
  actions = prepareMailActions(db);
});

const overview = () =>
  prepareLabelsAdmin(db)
    .overview()
    .map((l) => [l.name, l.total, l.colour]);
const idOf = (name: string) => prepareLabels(db).find(name) as number;
const undoNewest = () => actions.undoOne(actions.undoable(1)[0]?.id ?? 0);

test('a rename keeps the messages and the colour, and its Undo names it back', () => {
  prepareLabelsAdmin(db).setColour(idOf('Work'), 'blue');
  expect(actions.renameLabel(idOf('Work'), ' Projects ')).toEqual({
    id: idOf('Projects'),
    merged: false,
    changed: 3,
  });
  expect(overview()).toEqual([
    ['later', 1, null],
    ['Projects', 3, 'blue'],
  ]);
  expect(actions.undoable(1)[0]?.description).toBe('Renamed the label Work to Projects');
  undoNewest();
  expect(overview()).toEqual([
    ['later', 1, null],
    ['Work', 3, 'blue'],
  ]);
});

test('a rename onto another name (any case) merges, and its Undo parts them again with the colour', () => {
  prepareLabelsAdmin(db).setColour(idOf('later'), 'red');
  const later = idOf('later');
  expect(actions.renameLabel(later, 'WORK')).toMatchObject({ id: idOf('Work'), merged: true, changed: 1 });
  expect(overview()).toEqual([['Work', 3, null]]);
  undoNewest();
  expect(overview()).toEqual([
    ['later', 1, 'red'],
    ['Work', 3, null],
  ]);
  expect(idOf('later')).toBe(later);
});

test('deleting a label takes it off every message; its Undo puts it back on the same ones', () => {
  prepareLabelsAdmin(db).setColour(idOf('Work'), 'green');
  expect(actions.deleteLabel(idOf('Work'))).toEqual({ changed: 3 });
  expect(overview()).toEqual([['later', 1, null]]);
  undoNewest();
  expect(overview()).toEqual([
    ['later', 1, null],
    ['Work', 3, 'green'],
  ]);
});

test('the Undo of a rename is refused once another label has taken the old name', () => {
  actions.renameLabel(idOf('Work'), 'Projects');
  const entry = actions.undoable(1)[0]?.id ?? 0;
  actions.label([ids[1] as number], ['work'], []);
  expect(() => actions.undoOne(entry)).toThrow(/the labels were changed since/);
  expect(overview().map(([name]) => name)).toEqual(['later', 'Projects', 'work']);
});

test('bad names and missing labels are refused in sentences, changing nothing', () => {
  const work = idOf('Work');
  expect(() => actions.renameLabel(work, '   ')).toThrow('A label needs a name.');
  expect(() => actions.renameLabel(work, 'two words')).toThrow(/cannot contain spaces/);
  expect(() => actions.renameLabel(work, 'x'.repeat(65))).toThrow(/at most 64/);
  expect(() => actions.renameLabel(9999, 'x')).toThrow(MailError);
  expect(() => actions.deleteLabel(9999)).toThrow('That label no longer exists.');
  expect(overview()).toEqual([
    ['later', 1, null],
    ['Work', 3, null],
  ]);
});
