// `skimmer summarize` end to end (issue 7): a real process, a local server speaking OpenAI Chat. The thread's
// messages are the sources, each named by its message id; the printed answer's citations were checked
// against them; an answer citing a source it was not given is an error line and a non-zero exit.
import { symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { prepareModelChoices } from '../electron/ai/model-choices.ts';
import { prepareServices } from '../electron/ai/services.ts';
import { openDatabase } from '../electron/db/open.ts';
import { fileSealer } from '../electron/secrets/file-vault.ts';
import { createKeyVault } from '../electron/secrets/key-vault.ts';
import { jsonLines, runSkimmer } from './support/cli.ts';
import { makeDocx, makePdf } from './support/documents.ts';
import { eml, tempDir } from './support/temp.ts';

let content = '';
const bodies: { messages: { role: string; content: string }[] }[] = [];
const server = createServer(async (req, res) => {
  let raw = '';
  for await (const c of req) raw += c;
  bodies.push(JSON.parse(raw));
  res.writeHead(200, { 'content-type': 'application/json' }).end(
    JSON.stringify({
      choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
    }),
  );
});
const data = tempDir();
const skimmer = (args: string[]) => runSkimmer(['--data', data, ...args]);
let ids: number[] = [];
let threadId = 0;

beforeAll(async () => {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  const mail = tempDir();
  writeFileSync(
    join(mail, '1.eml'),
    eml({ id: '<s1@x>', subject: 'Offsite', body: 'Shall we meet on Tuesday?' }),
  );
  writeFileSync(
    join(mail, '2.eml'),
    eml({
      id: '<s2@x>',
      subject: 'Re: Offsite',
      inReplyTo: '<s1@x>',
      date: 'Mon, 30 Nov 2026 10:00:00 +0000',
      body: 'Tuesday works.',
    }),
  );
  expect((await skimmer(['import', mail])).code).toBe(0);
  expect((await skimmer(['service', 'add', 'local', '--kind', 'openai', '--base', base])).code).toBe(0);
  const hits = jsonLines((await skimmer(['search', 'Offsite', '--json'])).stdout) as {
    id: number;
    threadId: number;
  }[];
  // Search gives one hit per thread; the thread's messages are read from the database.
  threadId = hits[0]?.threadId ?? 0;
  const db = openDatabase(join(data, 'skimmer.db'));
  try {
    ids = db
      .prepare('SELECT id FROM messages WHERE thread_id = ? ORDER BY id')
      .pluck()
      .all(threadId) as number[];
  } finally {
    db.close();
  }
}, 60_000);
afterAll(() => new Promise<void>((r) => server.close(() => r())));

describe('skimmer summarize', () => {
  test('prints a checked, cited summary of a thread', async () => {
    const [a, b] = ids;
    content = JSON.stringify({
      answer: `Proposed Tuesday [m${a}], agreed [m${b}].`,
      citations: [`m${a}`, `m${b}`],
    });
    const out = await skimmer(['summarize', 'local/m', '--thread', String(threadId), '--json']);
    expect(out.code).toBe(0);
    expect(jsonLines(out.stdout)).toEqual([
      { answer: `Proposed Tuesday [m${a}], agreed [m${b}].`, citations: [`m${a}`, `m${b}`], cited: true },
    ]);
    const system = bodies.at(-1)?.messages[0]?.content ?? '';
    expect(system).toContain(`<untrusted_email source="source:m${a}"`);
    expect(system).toContain('Tuesday works.');
  });

  test('takes the model with --model, or else the default model for summaries; without either it says how to choose one', async () => {
    const [a] = ids;
    content = JSON.stringify({ answer: `Tuesday [m${a}].`, citations: [`m${a}`] });
    const thread = ['--thread', String(threadId), '--json'];
    const named = await skimmer(['summarize', '--model', 'local/flagged', ...thread]);
    expect(named.code).toBe(0);
    expect((bodies.at(-1) as unknown as { model: string }).model).toBe('flagged');

    const none = await skimmer(['summarize', ...thread]);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/^Choose a model: name one as service\/model, or set a default/);
    const twice = await skimmer(['summarize', 'local/one', '--model', 'local/two', ...thread]);
    expect(twice.code).toBe(2);
    expect(twice.stderr).toContain('Name the model once');

    // The default the app's Settings keep, as the reader's field starts from it.
    const db = openDatabase(join(data, 'skimmer.db'));
    try {
      const services = prepareServices(db, createKeyVault(db, fileSealer(data)));
      prepareModelChoices(db, services).setDefault('summary', 'local/by-default');
    } finally {
      db.close();
    }
    const asked = await skimmer(['summarize', ...thread]);
    expect(asked.code).toBe(0);
    expect((bodies.at(-1) as unknown as { model: string }).model).toBe('by-default');
  });

  test('an answer citing something that is not in the thread is an error, not a summary', async () => {
    content = JSON.stringify({ answer: 'It was cancelled [m999999].', citations: ['m999999'] });
    const out = await skimmer(['summarize', 'local/m', '--thread', String(threadId), '--json']);
    expect(out.code).toBe(1);
    expect(jsonLines(out.stdout)).toEqual([
      {
        type: 'error',
        code: 'bad_answer',
        message: expect.any(String),
        detail: expect.stringMatching(/m999999/),
      },
    ]);
  });

  test('answers a question over documents from their matching pages, citing them', async () => {
    const docs = tempDir();
    writeFileSync(
      join(docs, 'plan.pdf'),
      await makePdf(['Budget is flat.', 'Hiring two engineers in March.', 'Office moves.']),
    );
    writeFileSync(
      join(docs, 'notes.docx'),
      await makeDocx(['Kickoff Monday.', 'Hiring freeze lifted in February.']),
    );
    // The model cites whatever sources it was given, in order.
    content = '';
    const answerWith = (ids: string[]) =>
      JSON.stringify({ answer: ids.map((id) => `Fact [${id}].`).join(' '), citations: ids });
    const first = await skimmer([
      'summarize',
      'local/m',
      '--doc',
      join(docs, 'plan.pdf'),
      '--doc',
      join(docs, 'notes.docx'),
      '--question',
      'When is hiring?',
      '--json',
    ]);
    // The first call failed bad_answer (empty content) but imported the documents; now answer with their ids.
    expect(first.code).toBe(1);
    const system = bodies.at(-1)?.messages[0]?.content ?? '';
    const sent = [...system.matchAll(/source="source:(d\d+c\d+)"/g)].map((m) => m[1] as string);
    // Only the matching page of the PDF and the matching paragraph chunk of the .docx were sent.
    expect(sent).toHaveLength(2);
    expect(system).toContain('plan.pdf, page 2');
    expect(system).not.toContain('Budget is flat.');
    content = answerWith(sent);
    const out = await skimmer([
      'summarize',
      'local/m',
      '--doc',
      join(docs, 'plan.pdf'),
      '--doc',
      join(docs, 'notes.docx'),
      '--question',
      'When is hiring?',
      '--json',
    ]);
    expect(out.code).toBe(0);
    expect(jsonLines(out.stdout)).toEqual([{ answer: expect.any(String), citations: sent, cited: true }]);
  });

  test('imported documents are searchable beside mail, with their pages', async () => {
    const found = await skimmer(['search', 'engineers', '--documents', '--json']);
    expect(found.code).toBe(0);
    expect(jsonLines(found.stdout)).toEqual([
      {
        id: expect.stringMatching(/^d\d+c2$/),
        documentId: expect.any(Number),
        name: 'plan.pdf',
        location: 'page 2',
        snippet: expect.stringContaining('engineers'),
      },
    ]);
    // A query FTS5 cannot parse is searched as a phrase, not refused.
    expect((await skimmer(['search', 'two "engineers', '--documents', '--json'])).code).toBe(0);
  });

  test("refuses a --doc link to the process's environment before any request", async () => {
    const link = join(tempDir(), 'env.txt');
    symlinkSync('/proc/self/environ', link);
    const sentBefore = bodies.length;
    const out = await skimmer(['summarize', 'local/m', '--doc', link, '--json']);
    expect(out.code).toBe(2);
    expect(jsonLines(out.stdout)).toEqual([
      {
        type: 'error',
        code: 'invalid_request',
        message: 'env.txt: This is a system file (under /proc, /sys or /dev), not one of yours.',
      },
    ]);
    expect(bodies.length).toBe(sentBefore);
  });
});
