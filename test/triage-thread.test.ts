// Triage jobs worked on the triage thread, as the long-running app works them (DESIGN §3, issue 18), against a
// local decision server on 127.0.0.1: the thread asks, records, caches and audits on its own connection and this
// thread sees all of it; pause keeps every answer already on its way, cancel abandons the rest, and closing the
// thread in the middle leaves the job running for the next start to finish.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { prepareServices } from '../electron/ai/services.ts';
import { prepareQuestionSets } from '../electron/ai/triage/question-sets.ts';
import { prepareTriageJobs } from '../electron/ai/triage/triage-jobs.ts';
import { startTriageThread, type TriageThread } from '../electron/ai/triage/triage-thread.ts';
import { type Db, openDatabase } from '../electron/db/open.ts';
import { runImport } from '../electron/mail/import/import-run.ts';
import { SearchQueryError } from '../electron/mail/store/search.ts';
import { fileSealer } from '../electron/secrets/file-vault.ts';
import { createKeyVault } from '../electron/secrets/key-vault.ts';
import { type DecisionServer, startDecisionServer } from '../fixtures/judge/decision-server.ts';
import { eml, tempDir } from './support/temp.ts';

const total = 300;
const questions = JSON.parse(
  readFileSync(join(import.meta.dirname, '..', 'fixtures', 'judge', 'questions', 'support.json'), 'utf8'),
);
const dir = tempDir();
const dbFile = join(dir, 'skimmer.db');
let db: Db;
let services: ReturnType<typeof prepareServices>;
let server: DecisionServer;
let setId = 0;
const threads: TriageThread[] = [];

function jobsOnAThread() {
  const thread = startTriageThread(dbFile);
  threads.push(thread);
  return { thread, jobs: prepareTriageJobs({ db, services, place: thread }) };
}

/** Resolves at the first progress report that passes the test. */
function progressUntil(test: (done: number) => boolean) {
  let reached = () => {};
  const seen: number[] = [];
  const at = new Promise<void>((resolve) => {
    reached = resolve;
  });
  return {
    seen,
    at,
    onProgress: (p: { done: number }) => {
      seen.push(p.done);
      if (test(p.done)) reached();
    },
  };
}

const auditRows = (jobId: number) =>
  db.prepare("SELECT count(*) FROM audit WHERE job_id = ? AND tool = 'judge'").pluck().get(jobId) as number;

beforeAll(async () => {
  const mbox = join(dir, 'mail.mbox');
  const parts: string[] = [];
  for (let i = 0; i < total; i++)
    parts.push(
      `From sender@example.com Sun Nov 29 10:00:00 2026\r\n${eml({
        id: `<t${i}@thread.test>`,
        subject: `Request ${i}`,
        body: `Message number ${i}, about request ${i}.`,
      })}`,
    );
  writeFileSync(mbox, parts.join('\r\n'));
  db = openDatabase(dbFile);
  const { summary } = await runImport(db, [mbox], { onProgress: () => {}, isCancelled: () => false });
  expect(summary.imported).toBe(total);
  services = prepareServices(db, createKeyVault(db, fileSealer(dir)));
  // 600 requests a second, each answered in 5–25 ms: a job takes a second or two.
  server = await startDecisionServer({ rpm: 36_000, latencyMs: [5, 25] });
  await services.add({ name: 'dec', kind: 'decisions', baseUrl: server.base });
  setId = prepareQuestionSets(db).save({ name: 'Support', questions }).id;
}, 60_000);

afterAll(async () => {
  for (const t of threads) await t.close();
  await server?.close();
  db?.close();
});

describe('triage jobs on the triage thread', () => {
  test('a job is asked, recorded, cached and audited there, and this thread sees its progress and its end', async () => {
    const { jobs } = jobsOnAThread();
    const job = jobs.create(setId, 'dec/jev-whole', { kind: 'all' });
    const progress = progressUntil(() => false);
    const before = server.answered.size;
    const done = await jobs.run(job.id, { onProgress: progress.onProgress });
    expect(done).toMatchObject({ state: 'done', total, done: total, failed: 0 });
    // One report an answer, counting up to the whole job.
    expect(progress.seen).toHaveLength(total);
    expect(progress.seen.at(-1)).toBe(total);
    expect(progress.seen.every((n, i) => i === 0 || n > (progress.seen[i - 1] ?? 0))).toBe(true);
    // Written by the thread's connection, read by this one.
    expect(
      db.prepare("SELECT count(*) FROM triage_items WHERE job_id = ? AND state = 'done'").pluck().get(job.id),
    ).toBe(total);
    expect(auditRows(job.id)).toBe(total);
    expect(server.answered.size - before).toBe(total);

    // The same questions with the same model: every answer comes from the cache the thread filled.
    const again = jobs.create(setId, 'dec/jev-whole', { kind: 'all' });
    const asked = [...server.answered.values()].reduce((a, b) => a + b, 0);
    expect(await jobs.run(again.id)).toMatchObject({ state: 'done', done: total });
    expect([...server.answered.values()].reduce((a, b) => a + b, 0)).toBe(asked);
    expect(auditRows(again.id)).toBe(0);
  });

  test('a job started there is written there, its scope read there; a search it cannot read is refused in its words', async () => {
    const { jobs } = jobsOnAThread();
    const before = jobs.list().length;
    const job = await jobs.start(setId, 'dec/jev-start', { kind: 'query', query: 'request' });
    expect(job).toMatchObject({
      state: 'running',
      total,
      done: 0,
      scope: { kind: 'query', query: 'request' },
    });
    expect(db.prepare('SELECT count(*) FROM triage_items WHERE job_id = ?').pluck().get(job.id)).toBe(total);
    await expect(
      jobs.start(setId, 'dec/jev-start', { kind: 'query', query: 'request foo:bar' }),
    ).rejects.toMatchObject(
      // The domain's own error, made again on this side as the bridge's one table expects it.
      { reason: 'unknown_operator', message: expect.stringContaining('operator foo:') },
    );
    await expect(
      jobs.start(setId, 'dec/jev-start', { kind: 'query', query: 'foo:bar' }),
    ).rejects.toBeInstanceOf(SearchQueryError);
    await expect(jobs.start(999_999, 'dec/jev-start', { kind: 'all' })).rejects.toMatchObject({
      reason: 'not_found',
    });
    expect(jobs.list().length).toBe(before + 1);
    jobs.cancel(job.id);
  });

  test('a pause keeps every answer on its way; Resume asks only what is left, nothing twice', async () => {
    const { jobs } = jobsOnAThread();
    const job = jobs.create(setId, 'dec/jev-pause', { kind: 'all' });
    const askedBefore = new Map(server.answered);
    const progress = progressUntil((n) => n >= 60);
    const run = jobs.run(job.id, { onProgress: progress.onProgress });
    await progress.at;
    jobs.pause(job.id);
    const paused = await run;
    expect(paused.state).toBe('paused');
    expect(paused.done).toBeGreaterThanOrEqual(60);
    expect(paused.done).toBeLessThan(total);
    // What the service answered for this model is what the job holds: nothing was left unrecorded.
    const byThisModel = db
      .prepare('SELECT count(DISTINCT content_hash) FROM judge_answers WHERE model = ?')
      .pluck()
      .get('dec/jev-pause') as number;
    expect(byThisModel).toBe(paused.done);

    const finished = await jobs.run(job.id);
    expect(finished).toMatchObject({ state: 'done', done: total, failed: 0 });
    expect(auditRows(job.id)).toBe(total);
    // Across the pause and the Resume, each message was asked about exactly once.
    const askedNow = [...server.answered].map(([input, n]) => n - (askedBefore.get(input) ?? 0));
    expect(askedNow).toHaveLength(total);
    expect(askedNow.every((n) => n === 1)).toBe(true);
  });

  test('a cancel abandons what is left and the job stays cancelled', async () => {
    const { jobs } = jobsOnAThread();
    const job = jobs.create(setId, 'dec/jev-cancel', { kind: 'all' });
    const progress = progressUntil((n) => n >= 30);
    const run = jobs.run(job.id, { onProgress: progress.onProgress });
    await progress.at;
    jobs.cancel(job.id);
    const cancelled = await run;
    expect(cancelled.state).toBe('cancelled');
    expect(cancelled.done).toBeLessThan(total);
    expect(await jobs.run(job.id)).toMatchObject({ state: 'cancelled', done: cancelled.done });
  });

  test('closing the thread in the middle leaves the job running, and the next start finishes it', async () => {
    const first = jobsOnAThread();
    const job = first.jobs.create(setId, 'dec/jev-close', { kind: 'all' });
    const progress = progressUntil((n) => n >= 40);
    void first.jobs.run(job.id, { onProgress: progress.onProgress });
    await progress.at;
    await first.thread.close();
    const left = first.jobs.get(job.id);
    expect(left.state).toBe('running');
    expect(left.done).toBeLessThan(total);

    const second = jobsOnAThread(); // as after a restart
    expect(second.jobs.unfinished()).toContain(job.id);
    expect(await second.jobs.run(job.id)).toMatchObject({ state: 'done', done: total, failed: 0 });
  });
});
