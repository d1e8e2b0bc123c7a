// `skimmer search` with Gmail's operators, run as a real process over an imported copy of fixtures/search.
import { cpSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { projectRoot } from '../electron/app.ts';
import { SearchHit } from '../shared/contract/index.ts';
import { jsonLines, runSkimmer } from './support/cli.ts';
import { tempDir } from './support/temp.ts';

const data = tempDir();

beforeAll(async () => {
  // A copy in the temporary folder: `skimmer import` opens only the user's own places.
  const mail = tempDir();
  cpSync(join(projectRoot, 'fixtures', 'search', 'local'), mail, { recursive: true });
  const imported = await runSkimmer(['--data', data, 'import', mail, '--json']);
  expect(imported.code).toBe(0);
});

const subjects = async (query: string, env: Record<string, string> = {}, flags: string[] = []) => {
  const r = await runSkimmer(['--data', data, 'search', query, '--json', ...flags], { env });
  expect(r.code).toBe(0);
  return r.stdout.trim() === '' ? [] : jsonLines(r.stdout).map((l) => SearchHit.parse(l).subject);
};

describe('skimmer search', () => {
  test('takes the operators, one hit per thread, newest first', async () => {
    expect(await subjects('from:"Ana Müller" has:attachment OR subject:kickoff')).toEqual([
      'Re: Project X kickoff',
      'Invoice 1042',
    ]);
    expect(await subjects('budget OR lunch -in:inbox')).toEqual(['Budget 2026']);
  });

  test('lists the best match first with --relevance, the newest otherwise', async () => {
    // "Budget 2026" says budget in its subject and its body; the kickoff reply, newer, once in its body.
    expect(await subjects('budget')).toEqual(['Re: Project X kickoff', 'Budget 2026']);
    expect(await subjects('budget', {}, ['--relevance'])).toEqual(['Budget 2026', 'Re: Project X kickoff']);
  });

  test('exits 2 with a sentence naming an operator it does not know', async () => {
    const r = await runSkimmer(['--data', data, 'search', 'is:unread', 'foo:bar']);
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe(
      'Skimmer does not know the search operator foo: (in foo:bar). To search for the text, put it in quotes: "foo:bar".',
    );
    expect(r.stdout).toBe('');
  });

  test('exits 2 naming a date it cannot read', async () => {
    const r = await runSkimmer(['--data', data, 'search', 'after:2026-02-30']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('"2026-02-30" is not one');
  });

  // 04 is dated 2026-03-01 12:00 UTC and 05 2026-03-02 12:00 UTC: on Kiritimati (UTC+14) those are the 2nd
  // and the 3rd, so the same query names the other message there.
  test('reads dates as days of the local time zone', async () => {
    const q = 'subject:kickoff after:2026-03-02 before:2026-03-03';
    expect(await subjects(q, { TZ: 'UTC' })).toEqual(['Re: Project X kickoff']);
    expect(await subjects(q, { TZ: 'Pacific/Kiritimati' })).toEqual(['Project X kickoff']);
  });
});
