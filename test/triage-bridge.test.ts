// Triage over the bridge (issue 6): the starter questions, an estimate that contacts nothing, a job whose
// progress streams to the page and whose answers come back for the thread list's chips, Stop that pauses and
// Resume that finishes without asking anything twice. A local server speaks the OpenAI Decisions shape.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createApp } from '../electron/app.ts';
import { type ReplayServer, startReplayServer } from '../fixtures/judge/replay-server.ts';
import type { StreamEvent } from '../shared/contract/index.ts';
import { call, callRaw, streamUntil } from './support/bridge.ts';
import { eml, tempDir } from './support/temp.ts';

const judgeDir = join(import.meta.dirname, '..', 'fixtures', 'judge');
const questions = JSON.parse(readFileSync(join(judgeDir, 'questions', 'support.json'), 'utf8'));
const app = createApp({ dataDir: tempDir(), mode: 'browser' });
let server: ReplayServer;
let setId = 0;

const until = (streamId: string, type: StreamEvent['type']) => streamUntil(app, streamId, [type]);

beforeAll(async () => {
  const mail = tempDir();
  for (const i of [1, 2, 3, 4])
    writeFileSync(join(mail, `${i}.eml`), eml({ id: `<b${i}@x>`, subject: `Case ${i}` }));
  await app.importFiles([mail], () => {}).done;
  server = await startReplayServer();
  server.serve({
    status: 200,
    headers: { 'content-type': 'application/json' },
    body: readFileSync(join(judgeDir, 'decisions', 'all-types.body')),
  });
  await call(app, 'service:add', { name: 'dec', kind: 'decisions', baseUrl: server.base });
});

afterAll(async () => {
  await server?.close();
  await app.close();
});

describe('triage over the bridge', () => {
  test('offers the starter questions in a new database', async () => {
    const sets = await call(app, 'judge:sets', {});
    expect(sets.map((s) => s.name)).toEqual(['Triage']);
    expect(sets[0]?.questions.map((q) => q.name)).toEqual([
      'needs_reply',
      'category',
      'urgency',
      'is_newsletter',
      'is_phishing',
    ]);
  });

  test('adds the starter questions again on request, under a name not taken', async () => {
    const first = await call(app, 'judge:addStarters', {});
    const second = await call(app, 'judge:addStarters', {});
    expect(first.name).toBe('Triage 2'); // "Triage" is the set a new database starts with
    expect(second.name).toBe('Triage 3');
    expect(second.questions.map((q) => q.name)).toEqual(first.questions.map((q) => q.name));
    expect(first.questions).toHaveLength(5);
    await call(app, 'judge:removeSet', { id: first.id });
    await call(app, 'judge:removeSet', { id: second.id });
  });

  test('refuses a set that breaks the question rules, with the reason', async () => {
    const reply = await callRaw(app, 'judge:saveSet', {
      name: 'Bad',
      questions: [{ type: 'score', name: 'x', instructions: 'How much?', levels: [{ label: 'only' }] }],
    });
    expect(reply).toMatchObject({
      ok: false,
      error: { code: 'invalid_request', message: expect.stringMatching(/level/i) },
    });
    setId = (await call(app, 'judge:saveSet', { name: 'Support', questions })).id;
  });

  test('saves a set of 60 questions with dotted and long names, and a rule may name any of them', async () => {
    const long = `customer.${'vip'.repeat(40)}`;
    const many = [long, ...Array.from({ length: 59 }, (_, i) => `Ticket.urgent.${i}`)].map((name) => ({
      type: 'predicate' as const,
      name,
      instructions: 'Is it so?',
    }));
    const saved = await call(app, 'judge:saveSet', { name: 'Many', questions: many });
    expect(saved.questions.map((q) => q.name)).toEqual(many.map((q) => q.name));
    const rules = [
      {
        question: long,
        when: { op: 'probability_at_least' as const, value: 0.5 },
        action: { kind: 'archive' as const },
      },
    ];
    const card = await call(app, 'triage:suggest', { setId: saved.id, scope: { kind: 'all' }, rules });
    expect(card.map((c) => c.rule)).toEqual([0]);
    await call(app, 'judge:removeSet', { id: saved.id });
  });

  test('estimates before any request', async () => {
    const e = await call(app, 'triage:estimate', { setId, scope: { kind: 'all' } });
    expect(e.messages).toBe(4);
    expect(e.inputTokens).toBeGreaterThan(0);
    expect(server.received).toEqual([]);
  });

  test('runs a job with progress, and the answers come back for the chips', async () => {
    const { job, streamId } = await call(app, 'triage:start', {
      setId,
      model: 'dec/gpt-6-luna',
      scope: { kind: 'all' },
    });
    const events = await until(streamId, 'triage_done');
    expect(events.filter((e) => e.type === 'triage_progress').at(-1)).toMatchObject({ done: 4, total: 4 });
    expect(events.at(-1)).toMatchObject({ type: 'triage_done', job: { id: job.id, state: 'done', done: 4 } });
    const ids = app.db.prepare('SELECT id FROM messages ORDER BY id').pluck().all() as number[];
    const chips = await call(app, 'judge:answers', { setId, messageIds: ids });
    expect(chips).toHaveLength(4);
    expect(chips[0]).toMatchObject({ model: 'dec/gpt-6-luna', certainty: 'probabilities' });
    expect(chips[0]?.answers.map((a) => a.type)).toEqual(['predicate', 'choice', 'score']);
    const threads = app.db.prepare('SELECT DISTINCT thread_id FROM messages').pluck().all() as number[];
    const byThread = await call(app, 'judge:threadAnswers', { setId, threadIds: threads });
    expect(byThread.map((t) => t.threadId).sort()).toEqual([...threads].sort());
    // One audit entry per message asked, found by the job.
    const log = await call(app, 'audit:list', { jobId: job.id });
    expect(log).toHaveLength(4);
    expect(
      log.every((e) => e.jobId === job.id && e.tool === 'judge' && /with gpt-6-luna/.test(e.resultSummary)),
    ).toBe(true);
  });

  test('rules suggest writes per rule; only what the user approved is applied, undoably', async () => {
    const rules = [
      {
        question: 'urgent',
        when: { op: 'probability_at_least' as const, value: 0.9 },
        action: { kind: 'label' as const, label: 'Urgent' },
      },
      {
        question: 'team',
        when: { op: 'is' as const, value: 'technical' },
        action: { kind: 'archive' as const },
      },
    ];
    const card = await call(app, 'triage:suggest', { setId, scope: { kind: 'all' }, rules });
    expect(card.map((c) => [c.rule, c.action, c.messages.length])).toEqual([
      [0, 'Label “Urgent”', 4],
      [1, 'Archive', 0],
    ]);
    const ids = card[0]?.messages.map((m) => m.id) ?? [];
    const approved = [...ids.slice(0, 3), 999_999];
    const done = await call(app, 'triage:apply', {
      setId,
      scope: { kind: 'all' },
      rules,
      approve: [{ rule: 0, messageIds: approved }],
    });
    expect(done.applied).toBe(3);
    expect(done.undo).toHaveLength(1);
    // The audit log says what the user approved, on exactly the messages that were changed.
    const [logged] = await call(app, 'audit:list', { limit: 1 });
    expect(logged).toMatchObject({
      tool: 'triage_rule',
      effect: 'write',
      decision: 'approved',
      decidedBy: 'user',
      conversationId: null,
      resultSummary: 'Label “Urgent”: 3 messages (undoable).',
    });
    expect((logged?.args as { messageIds?: number[] } | undefined)?.messageIds).toEqual(ids.slice(0, 3));
    const labelled = () =>
      app.db
        .prepare(
          "SELECT count(*) FROM message_labels ml JOIN labels l ON l.id = ml.label_id WHERE l.name = 'Urgent'",
        )
        .pluck()
        .get();
    expect(labelled()).toBe(3);
    await call(app, 'mail:undo', { count: 1 });
    expect(labelled()).toBe(0);
  });

  test('Stop pauses a job; Resume finishes it without asking anything twice', async () => {
    const other = (await call(app, 'judge:saveSet', { name: 'Other', questions: questions.slice(0, 1) })).id;
    server.serve({
      status: 200,
      headers: { 'content-type': 'application/json' },
      body: readFileSync(join(judgeDir, 'decisions', 'all-types.body')),
    });
    const { job, streamId } = await call(app, 'triage:start', {
      setId: other,
      model: 'dec/gpt-6-luna',
      scope: { kind: 'all' },
    });
    await call(app, 'run:cancel', { streamId });
    const paused = await until(streamId, 'triage_done');
    expect(paused.at(-1)).toMatchObject({ job: { state: 'paused' } });
    const asked = server.received.length;
    const resumed = await call(app, 'triage:resume', { id: job.id });
    const done = await until(resumed.streamId, 'triage_done');
    expect(done.at(-1)).toMatchObject({ job: { state: 'done', done: 4 } });
    // Four messages, each asked at most once across both runs.
    expect(server.received.length - 4).toBeLessThanOrEqual(4 - (asked - 4));
  });
});
