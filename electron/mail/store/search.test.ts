import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { eml, tempDir } from '../../../test/support/temp.ts';
import { type Db, openDatabase } from '../../db/open.ts';
import { runImport } from '../import/import-run.ts';
import { literalQuery, prepareSearch } from './search.ts';

let db: Db;
let search: ReturnType<typeof prepareSearch>;

beforeAll(async () => {
  const dir = tempDir();
  writeFileSync(
    join(dir, '1.eml'),
    eml({ id: '<1@x>', subject: 'Invoice 1042', body: 'Please pay Herr Müller by Friday.' }),
  );
  writeFileSync(
    join(dir, '2.eml'),
    eml({
      id: '<2@x>',
      subject: 'Lunch',
      from: 'Carol <carol@example.org>',
      body: 'Conference lunch at noon',
    }),
  );
  writeFileSync(join(dir, '3.eml'), eml({ id: '<3@x>', subject: 'Привет', body: 'Встреча завтра' }));
  db = openDatabase(join(dir, 'skimmer.db'));
  await runImport(db, [dir], { onProgress: () => {}, isCancelled: () => false });
  search = prepareSearch(db);
});

const subjects = (q: string) =>
  search(q, 50)
    .map((h) => h.subject)
    .sort();

describe('search', () => {
  test.each([
    ['muller', ['Invoice 1042']],
    ['"pay herr"', ['Invoice 1042']],
    ['conf*', ['Lunch']],
    ['from:carol', ['Lunch']],
    ['subject:lunch OR subject:invoice', ['Invoice 1042', 'Lunch']],
    ['lunch NOT conference', []],
    ['встреча', ['Привет']],
    ['carol@example.org', ['Lunch']],
  ])('%s finds %j', (q, expected) => {
    expect(subjects(q)).toEqual(expected);
  });

  test('returns thread ids, the sender and a snippet without markup', () => {
    const [hit] = search('friday', 5);
    expect(hit).toMatchObject({
      subject: 'Invoice 1042',
      from: 'Alice <alice@example.com>',
      messageId: '<1@x>',
    });
    expect(hit?.snippet).toContain('Friday');
    expect(hit?.threadId).toBeGreaterThan(0);
  });

  test('takes a stray quote literally instead of failing', () => {
    expect(subjects('"lunch')).toEqual(['Lunch']);
  });

  test('finds nothing, without an error, for a query of punctuation only', () => {
    expect(search('@@ ::', 5)).toEqual([]);
  });

  test.each([
    ['a@b.c', '"a@b.c"'],
    ['from:a@b "x', 'from:"a@b" """x"'],
    ['weird:thing', '"weird:thing"'],
  ])('literalQuery(%j) is %j', (input, expected) => {
    expect(literalQuery(input)).toBe(expected);
  });
});
