// A question set on new mail when the mail comes by IMAP (issue 17, DESIGN §9): the long-running app's
// background sync against a real Dovecot on loopback, and a local server speaking the OpenAI Decisions shape.
// What it proves: mail the first sync brings before the set is turned on is not asked about; a message that
// arrives on the server afterwards gets one job over exactly it, run to done, asked once, and the page's watch
// (`account:watch`) hears the job start and end.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type App, createApp } from '../electron/app.ts';
import { type DecisionServer, startDecisionServer } from '../fixtures/judge/decision-server.ts';
import type { StreamEvent } from '../shared/contract/index.ts';
import { call } from './support/bridge.ts';
import { type Dovecot, startDovecot } from './support/dovecot.ts';
import { eml, tempDir } from './support/temp.ts';
import { waitUntil } from './support/wait-until.ts';

let server: Dovecot;
let decisions: DecisionServer;
let app: App;
let setId = 0;
const watched: Extract<StreamEvent, { type: 'triage_job' }>[] = [];
const idOf = (messageId: string) =>
  app.db.prepare('SELECT id FROM messages WHERE message_id = ?').pluck().get(messageId) as number | undefined;

beforeAll(async () => {
  server = await startDovecot();
  await server.append('INBOX', [eml({ id: '<old@example.com>', subject: 'Already here' })]);
  decisions = await startDecisionServer({ rpm: 60_000, latencyMs: [1, 5] });
  app = createApp({ dataDir: tempDir(), mode: 'browser', background: true });
  await call(app, 'service:add', { name: 'dec', kind: 'decisions', baseUrl: decisions.base });
  setId = (
    await call(app, 'judge:saveSet', {
      name: 'Ops',
      questions: [{ type: 'predicate', name: 'urgent', instructions: 'Does this need action today?' }],
    })
  ).id;
  await call(app, 'account:add', {
    name: 'work',
    user: 'test@example.com',
    password: 'secret',
    imap: { host: server.host, port: server.port, tls: 'none' },
  });
  const { streamId } = await call(app, 'account:watch', {});
  app.streams.listen((m) => {
    if (m.streamId === streamId && m.event.type === 'triage_job') watched.push(m.event);
  });
  // The first sync, before the set is turned on.
  await waitUntil(
    () => idOf('<old@example.com>') !== undefined,
    { timeout: 20_000, interval: 100 },
    'the account did not sync',
  );
}, 60_000);

afterAll(async () => {
  await app?.close();
  await server?.stop();
  await decisions?.close();
});

describe('a question set on new mail from IMAP', () => {
  test('a message the background sync brings after it was turned on gets one job over exactly it', async () => {
    await call(app, 'judge:setNewMail', { setId, model: 'dec/gpt-6-luna' });
    await server.append('INBOX', [eml({ id: '<new@example.com>', subject: 'Arrived later' })]);
    await expect.poll(() => idOf('<new@example.com>')).toBeDefined();
    await expect.poll(async () => (await call(app, 'triage:jobs', {}))[0]?.state).toBe('done');
    const jobs = await call(app, 'triage:jobs', {});
    expect(jobs).toHaveLength(1);
    expect(jobs[0]).toMatchObject({ setId, scope: { kind: 'new_mail', messages: 1 }, total: 1, done: 1 });
    const items = app.db
      .prepare('SELECT message FROM triage_items WHERE job_id = ?')
      .pluck()
      .all(jobs[0]?.id);
    expect(items).toEqual([idOf('<new@example.com>')]);
    expect([...decisions.answered.keys()]).toEqual([expect.stringContaining('Subject: Arrived later')]);
    // The page's watch heard it start and end.
    await expect.poll(() => watched.map((e) => e.job.state)).toEqual(['running', 'done']);
    expect(watched.every((e) => e.job.id === jobs[0]?.id)).toBe(true);
  });
});
