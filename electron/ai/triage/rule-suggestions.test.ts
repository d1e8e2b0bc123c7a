// The rules' preview on a real SQLite file (issue 17): the card lists what a rule would change in the mail
// that is there, so a message the write would leave as it is (labelled already, read, archived) is not on it,
// and applying what it showed leaves nothing for the next preview.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import type { TriageRule } from '../../../shared/contract/index.ts';
import type { Question } from '../../../shared/judge.ts';
import { eml, tempDir } from '../../../test/support/temp.ts';
import { type Db, openDatabase } from '../../db/open.ts';
import { runImport } from '../../mail/import/import-run.ts';
import { prepareMailActions } from '../../mail/store/undo.ts';
import { prepareJudgeAnswers } from './answers.ts';
import { prepareQuestionSets } from './question-sets.ts';
import { prepareRuleSuggestions } from './rule-suggestions.ts';

const questions: Question[] = [{ type: 'predicate', name: 'news', instructions: 'A newsletter?' }];
let db: Db;
let setId = 0;
let ids: number[] = [];
let rules: ReturnType<typeof prepareRuleSuggestions>;

const rule = (action: TriageRule['action']): TriageRule => ({
  question: 'news',
  when: { op: 'probability_at_least', value: 0.5 },
  action,
});
const previewed = (action: TriageRule['action']) =>
  rules.suggest(setId, { kind: 'all' }, [rule(action)])[0]?.messages.map((m) => m.id) ?? [];

beforeAll(async () => {
  const dir = tempDir();
  const mail = tempDir();
  for (const n of [1, 2, 3, 4])
    writeFileSync(join(mail, `${n}.eml`), eml({ id: `<m${n}@x>`, subject: `Digest ${n}` }));
  db = openDatabase(join(dir, 'skimmer.db'));
  await runImport(db, [mail], { onProgress: () => {}, isCancelled: () => false });
  setId = prepareQuestionSets(db).save({ name: 'News', questions }).id;
  const cache = prepareJudgeAnswers(db);
  const rows = db.prepare('SELECT id, content_hash FROM messages ORDER BY id').all() as {
    id: number;
    content_hash: string;
  }[];
  ids = rows.map((r) => r.id);
  // Messages 1–3 are newsletters, 4 is not.
  for (const [i, r] of rows.entries()) {
    const probability = i < 3 ? 0.9 : 0.1;
    cache.store(
      r.content_hash,
      'dec/m',
      questions,
      [{ type: 'predicate', name: 'news', probability }],
      'probabilities',
      null,
    );
  }
  rules = prepareRuleSuggestions(db, () => ids);
});

describe('a rule’s preview', () => {
  test('lists only the matching messages the label would change', () => {
    prepareMailActions(db).label([ids[0] as number], ['newsletter'], []);
    // The label is found whatever its case, as labels are named.
    expect(previewed({ kind: 'label', label: 'Newsletter' })).toEqual([ids[1], ids[2]]);
  });

  test('lists only unread messages for mark read, and none already archived for archive', () => {
    prepareMailActions(db).markRead([ids[1] as number], true);
    expect(previewed({ kind: 'mark_read' })).toEqual([ids[0], ids[2]]);
    prepareMailActions(db).moveToSpecial([ids[2] as number], 'archive');
    expect(previewed({ kind: 'archive' })).toEqual([ids[0], ids[1]]);
  });

  test('applying what the preview showed leaves nothing to preview', () => {
    const action: TriageRule['action'] = { kind: 'label', label: 'Newsletter' };
    const shown = previewed(action);
    const matched = rules.matches(setId, { kind: 'all' }, [rule(action)]);
    expect(matched).toEqual([shown]);
    const done = rules.apply([rule(action)], [{ rule: 0, messageIds: shown }], matched);
    expect(done.applied).toBe(shown.length);
    expect(previewed(action)).toEqual([]);
  });

  test('applying changes only what the rule matched, whatever else the request names', () => {
    const action: TriageRule['action'] = { kind: 'mark_read' };
    const matched = rules.matches(setId, { kind: 'all' }, [rule(action)]);
    const unmatched = ids.filter((id) => !matched[0]?.includes(id));
    expect(unmatched.length).toBeGreaterThan(0);
    const done = rules.apply([rule(action)], [{ rule: 0, messageIds: unmatched }], matched);
    expect(done.applied).toBe(0);
  });
});
