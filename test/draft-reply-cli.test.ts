// `skimmer draft reply ID --model SERVICE/MODEL`, run as a real process against a local model that cites what
// it is sent: the draft as `draft reply` prints it, plus its citations and the facts the thread does not hold;
// a citation outside the thread fails the command and stores no draft.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type CitingModel, startCitingModel } from './support/citing-model.ts';
import { jsonLines, runSkimmer } from './support/cli.ts';
import { eml, tempDir } from './support/temp.ts';

const data = tempDir();
const files = tempDir();
const skimmer = (args: string[]) => runSkimmer(['--data', data, ...args]);
let model: CitingModel;
let first = 0;
let second = 0;

beforeAll(async () => {
  // Cites each message it is given; the second sentence holds an amount the thread does not.
  model = await startCitingModel(
    (cited) => `Hi Priya,\n\nYes to 40k [${cited[0]}] and to the 14th [${cited[1]}]; add $2,500 for travel.`,
  );
  const mail = join(files, 'mail');
  mkdirSync(mail);
  writeFileSync(
    join(mail, '1.eml'),
    eml({
      id: '<b1@example.org>',
      from: 'Priya <priya@example.org>',
      subject: 'Budget',
      body: 'A budget of $40,000? Ask dana@else.example too.',
    }),
  );
  writeFileSync(
    join(mail, '2.eml'),
    eml({
      id: '<b2@example.org>',
      from: 'Priya <priya@example.org>',
      subject: 'Re: Budget',
      inReplyTo: '<b1@example.org>',
      date: 'Mon, 30 Nov 2026 10:00:00 +0000',
      body: 'And sign on Dec 14?',
    }),
  );
  expect((await skimmer(['import', mail])).code).toBe(0);
  expect((await skimmer(['service', 'add', 'local', '--kind', 'openai', '--base', model.base])).code).toBe(0);
  const idOf = async (words: string) =>
    jsonLines((await skimmer(['search', words, '--json'])).stdout)[0]?.id as number;
  first = await idOf('dana');
  second = await idOf('sign');
});
afterAll(() => model?.close());

describe('skimmer draft reply --model', () => {
  test('prints the drafted reply with its citations and what the thread does not hold', async () => {
    const r = await skimmer([
      'draft',
      'reply',
      String(second),
      '--model',
      'local/m',
      '--instructions',
      'say yes',
      '--json',
    ]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const [out] = jsonLines(r.stdout);
    expect(out).toMatchObject({
      to: [{ address: 'priya@example.org' }],
      subject: 'Re: Budget',
      inReplyTo: '<b2@example.org>',
      cited: true,
      citations: [{ messageId: first }, { messageId: second }],
      unverified: [{ text: '$2,500', reason: 'not found in the messages cited' }],
    });
    expect(out?.body).toMatch(/^Hi Priya,\n\nYes to 40k and to the 14th; add \$2,500 for travel\.\n/);
    expect(JSON.stringify(out?.to)).not.toContain('dana@else.example');
    expect(model.received.at(-1)?.question).toBe('Draft my reply. My instructions: say yes');
    const listed = jsonLines((await skimmer(['draft', 'list', '--json'])).stdout);
    expect(listed.map((d) => d.id)).toContain(out?.id);
  });

  test('says which facts are unverified in the text output', async () => {
    const r = await skimmer(['draft', 'reply', String(second), '--model', 'local/m']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Unverified: $2,500: not found in the messages cited');
    expect(r.stdout).toMatch(/Cited: message \d+ \(Budget — Priya\); message \d+/);
  });

  test('fails on a citation outside the thread and stores no draft', async () => {
    const before = jsonLines((await skimmer(['draft', 'list', '--json'])).stdout).length;
    model.cite = () => ['m999999'];
    try {
      const r = await skimmer(['draft', 'reply', String(second), '--model', 'local/m', '--json']);
      expect(r.code).toBe(1);
      expect(jsonLines(r.stdout)).toEqual([
        { type: 'error', code: 'bad_answer', message: expect.stringContaining('m999999') },
      ]);
    } finally {
      model.cite = (ids) => ids;
    }
    expect(jsonLines((await skimmer(['draft', 'list', '--json'])).stdout).length).toBe(before);
  });

  test('refuses --instructions without --model', async () => {
    const r = await skimmer(['draft', 'reply', String(second), '--instructions', 'say yes']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--instructions go with --model');
  });
});
