// Triage jobs against a local server speaking the OpenAI Decisions shape (fixtures/judge): a job runs its
// question set over a scope and records every message; a second job asks nothing already answered; a job
// left running by a restart is found and finished; an estimate comes before any request.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type ReplayServer, startReplayServer } from '../../../fixtures/judge/replay-server.ts';
import { eml, tempDir } from '../../../test/support/temp.ts';
import { type Db, openDatabase } from '../../db/open.ts';
import { runImport } from '../../mail/import/import-run.ts';
import { fileSealer } from '../../secrets/file-vault.ts';
import { createKeyVault } from '../../secrets/key-vault.ts';
import { prepareAudit } from '../safety/audit.ts';
import { prepareServices } from '../services.ts';
import { workHere } from './job-work.ts';
import { prepareQuestionSets } from './question-sets.ts';
import { prepareScopeMeasure } from './scope-messages.ts';
import { prepareTriageJobs } from './triage-jobs.ts';

const judgeDir = join(import.meta.dirname, '..', '..', '..', 'fixtures', 'judge');
const questions = JSON.parse(readFileSync(join(judgeDir, 'questions', 'support.json'), 'utf8'));
let server: ReplayServer;
let db: Db;
let services: ReturnType<typeof prepareServices>;
let setId = 0;

beforeAll(async () => {
  const dir = tempDir();
  const mail = tempDir();
  for (const i of [1, 2, 3])
    writeFileSync(
      join(mail, `${i}.eml`),
      eml({ id: `<t${i}@x>`, subject: `Ticket ${i}`, body: `Body ${i}` }),
    );
  db = openDatabase(join(dir, 'skimmer.db'));
  await runImport(db, [mail], { onProgress: () => {}, isCancelled: () => false });
  services = prepareServices(db, createKeyVault(db, fileSealer(dir)));
  server = await startReplayServer();
  server.serve({
    status: 200,
    headers: { 'content-type': 'application/json', 'x-request-id': 'req_1' },
    body: readFileSync(join(judgeDir, 'decisions', 'all-types.body')),
  });
  await services.add({ name: 'dec', kind: 'decisions', baseUrl: server.base });
  setId = prepareQuestionSets(db).save({ name: 'Support', questions }).id;
});

afterAll(async () => {
  await server?.close();
  db?.close();
});

describe('triage jobs', () => {
  test('estimate before any request: messages, input tokens, time', () => {
    const e = prepareTriageJobs({ db, services }).estimate(prepareScopeMeasure(db)(setId, { kind: 'all' }));
    expect(e.messages).toBe(3);
    expect(e.inputTokens).toBeGreaterThan(3 * 100);
    expect(e.cost).toBeNull();
    expect(server.received).toEqual([]);
  });

  test('a search scope Skimmer cannot read is refused with the sentence that names it', () => {
    const jobs = prepareTriageJobs({ db, services });
    expect(() => jobs.create(setId, 'dec/gpt-6-luna', { kind: 'query', query: 'Ticket foo:bar' })).toThrow(
      // The domain's own error; the bridge's one table (electron/bridge/errors.ts) makes it invalid_request.
      expect.objectContaining({
        reason: 'unknown_operator',
        message: expect.stringContaining('operator foo:'),
      }),
    );
    expect(jobs.list()).toEqual([]);
  });

  test("the estimate prices the input tokens at the service's price, when the user entered one", () => {
    const jobs = prepareTriageJobs({ db, services });
    const all = prepareScopeMeasure(db)(setId, { kind: 'all' });
    const id = services.list().find((s) => s.name === 'dec')?.id as number;
    expect(jobs.estimate(all, 'dec/gpt-6-luna').cost).toBeNull();
    services.setPrice(id, 2.5);
    const e = jobs.estimate(all, 'dec/gpt-6-luna');
    expect(e.cost).toBeCloseTo((e.inputTokens * 2.5) / 1e6, 4);
    expect(e.cost).toBeGreaterThan(0);
    // Another service, or one not saved yet, has no price.
    expect(jobs.estimate(all, 'elsewhere/m').cost).toBeNull();
    services.setPrice(id, null);
    expect(server.received).toEqual([]);
  });

  test('runs a set over the mailbox, records each message, and reports progress', async () => {
    const jobs = prepareTriageJobs({ db, services });
    const job = jobs.create(setId, 'dec/gpt-6-luna', { kind: 'all' });
    const progress: number[] = [];
    const done = await jobs.run(job.id, { onProgress: (p) => progress.push(p.done) });
    expect(done).toMatchObject({ state: 'done', total: 3, done: 3, failed: 0 });
    expect(progress.at(-1)).toBe(3);
    expect(server.received).toHaveLength(3);
  });

  test('logs every question asked in the audit, with the model that answered, the request id and the time', () => {
    const jobId = prepareTriageJobs({ db, services }).list()[0]?.id as number;
    const entries = prepareAudit(db, () => []).list({ jobId, limit: 100 });
    expect(entries).toHaveLength(3);
    for (const e of entries) {
      expect(e).toMatchObject({ jobId, conversationId: null, tool: 'judge', effect: 'read', isError: false });
      expect(e.resultSummary).toMatch(
        /^Answered 3 questions about “Ticket \d” with gpt-6-luna \(request req_1\)\.$/,
      );
      expect(e.at).toBeGreaterThan(Date.now() - 60_000);
    }
    expect(entries.map((e) => (e.args as { messageId: number }).messageId).sort()).toEqual([1, 2, 3]);
  });

  test('a second job over the same mail asks nothing, and logs nothing', async () => {
    const jobs = prepareTriageJobs({ db, services });
    const job = jobs.create(setId, 'dec/gpt-6-luna', { kind: 'query', query: 'Ticket' });
    expect(await jobs.run(job.id)).toMatchObject({ state: 'done', done: 3 });
    expect(server.received).toHaveLength(3);
    expect(prepareAudit(db, () => []).list({ jobId: job.id, limit: 100 })).toEqual([]);
  });

  test('a job left running by a restart is found and finished', async () => {
    const before = prepareTriageJobs({ db, services });
    const job = before.create(setId, 'dec/other-model', { kind: 'all' });
    const after = prepareTriageJobs({ db, services }); // as after a restart
    expect(after.unfinished()).toContain(job.id);
    expect(await after.run(job.id)).toMatchObject({ state: 'done', done: 3 });
    expect(after.unfinished()).not.toContain(job.id);
  });

  test('a service that refuses everything for 5 minutes stops the job with every message still pending', async () => {
    const allTypes = readFileSync(join(judgeDir, 'decisions', 'all-types.body'));
    server.serve({
      status: 429,
      headers: { 'content-type': 'application/json', 'retry-after-ms': '0' },
      body: Buffer.from(
        '{"error":{"message":"Rate limit reached for requests","code":"rate_limit_exceeded"}}',
      ),
    });
    // A clock that moves a minute at every look: the service has refused "for" 5 minutes after a few tries.
    let t = Date.now();
    const clock = () => (t += 60_000);
    const work = workHere(db, { now: clock, sleep: async () => {} });
    const jobs = prepareTriageJobs({ db, services, place: work }, clock);
    const job = jobs.create(setId, 'dec/fourth-model', { kind: 'all' });
    const stopped = await jobs.run(job.id);
    expect(stopped).toMatchObject({ state: 'failed', done: 0, failed: 0, total: 3 });
    expect(stopped.error).toMatch(/rate/i);
    // Resume, once the service answers again: all three are asked and answered.
    server.serve({ status: 200, headers: { 'content-type': 'application/json' }, body: allTypes });
    expect(await prepareTriageJobs({ db, services }).run(job.id)).toMatchObject({
      state: 'done',
      done: 3,
      failed: 0,
    });
  });

  test('a cancelled job stays cancelled and is not run again', async () => {
    const jobs = prepareTriageJobs({ db, services });
    const job = jobs.create(setId, 'dec/third-model', { kind: 'all' });
    jobs.cancel(job.id);
    const seen = server.received.length;
    expect(await jobs.run(job.id)).toMatchObject({ state: 'cancelled', done: 0 });
    expect(server.received.length).toBe(seen);
  });
});
