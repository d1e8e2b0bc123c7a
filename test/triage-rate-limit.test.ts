// A triage job of 5,000 messages against a local decision server that enforces a request rate and answers
// with latency (issue 6): every message answered once and none twice (the server counts), a 429 burst in
// the middle slows the job instead of failing it, and a stop followed by a restart resumes where it stopped.
// A second server sends no rate-limit headers (as System One): the job still finishes, learning from 429s.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { prepareServices } from '../electron/ai/services.ts';
import { prepareQuestionSets } from '../electron/ai/triage/question-sets.ts';
import { prepareTriageJobs } from '../electron/ai/triage/triage-jobs.ts';
import { type Db, openDatabase } from '../electron/db/open.ts';
import { runImport } from '../electron/mail/import/import-run.ts';
import { fileSealer } from '../electron/secrets/file-vault.ts';
import { createKeyVault } from '../electron/secrets/key-vault.ts';
import { type DecisionServer, startDecisionServer } from '../fixtures/judge/decision-server.ts';
import { eml, tempDir } from './support/temp.ts';

const total = 5000;
const questions = JSON.parse(
  readFileSync(join(import.meta.dirname, '..', 'fixtures', 'judge', 'questions', 'support.json'), 'utf8'),
);
const dir = tempDir();
const dbFile = join(dir, 'skimmer.db');
const open: Db[] = [];

function app() {
  const db = openDatabase(dbFile);
  open.push(db);
  const services = prepareServices(db, createKeyVault(db, fileSealer(dir)));
  return { db, services, jobs: prepareTriageJobs({ db, services }) };
}

let limited: DecisionServer;
let headerless: DecisionServer;
let setId = 0;

beforeAll(async () => {
  const mbox = join(dir, 'mail.mbox');
  const parts: string[] = [];
  for (let i = 0; i < total; i++) {
    const day = String(1 + (i % 28)).padStart(2, '0');
    parts.push(
      `From sender@example.com Sun Nov 29 10:00:00 2026\r\n${eml({
        id: `<m${i}@rate.test>`,
        subject: `Order ${i}`,
        date: `Sun, ${day} Nov 2026 10:00:00 +0000`,
        body: `Message number ${i} about order ${i}.`,
      })}`,
    );
  }
  writeFileSync(mbox, parts.join('\r\n'));
  const { db, services } = app();
  const { summary } = await runImport(db, [mbox], { onProgress: () => {}, isCancelled: () => false });
  expect(summary.imported).toBe(total);
  // 24,000 requests a minute (400 a second, a bucket of 400), answers in 5–30 ms; without headers, 6,000.
  limited = await startDecisionServer({ rpm: 24_000, latencyMs: [5, 30] });
  headerless = await startDecisionServer({ rpm: 6000, latencyMs: [5, 30], rateLimitHeaders: false, seed: 2 });
  await services.add({ name: 'limited', kind: 'decisions', baseUrl: limited.base });
  await services.add({ name: 'plain', kind: 'decisions', baseUrl: headerless.base });
  setId = prepareQuestionSets(db).save({ name: 'Support', questions }).id;
}, 120_000);

afterAll(async () => {
  await limited?.close();
  await headerless?.close();
  for (const db of open) db.close();
});

const counts = (s: DecisionServer) => [...s.answered.values()];

describe('a 5,000-message triage job against a rate-limited decision server', () => {
  test('answers every message once through a 429 burst and a restart, failing none', async () => {
    const first = app();
    const job = first.jobs.create(setId, 'limited/jev-1', { kind: 'all' });
    expect(job.total).toBe(total);

    let seen = 0;
    const run = first.jobs.run(job.id, {
      // One report an answer.
      onProgress: () => {
        seen += 1;
        // Halfway through the first part, the service refuses everything for a second.
        if (seen === 1000) limited.refuseFor(1000, 400);
        if (seen === 2500) first.jobs.pause(job.id);
      },
    });
    const paused = await run;
    expect(paused.state).toBe('paused');
    expect(paused.failed).toBe(0);
    // The pause let the requests in flight finish and recorded them: what the server answered is what the
    // job holds, so nothing it answered will be asked again.
    expect(limited.answered.size).toBe(paused.done);
    expect(paused.done).toBeGreaterThanOrEqual(2500);
    expect(paused.done).toBeLessThan(total);

    // The burst slowed the job down: each request in flight when it began was tried a few times, each after
    // the wait the service asked for (the transport's own retries, then the job's queue), and no new request
    // started meanwhile. A client that ignored the wait would send thousands of requests in that second.
    const burst = limited.refused.filter((r) => r.cause === 'burst');
    expect(burst.length).toBeGreaterThan(0);
    expect(burst.length).toBeLessThanOrEqual(4 * limited.maxInFlight());

    // A restart: new connections, new services; the user resumes the paused job.
    const second = app();
    const finished = await second.jobs.run(job.id);
    expect(finished).toMatchObject({ state: 'done', total, done: total, failed: 0 });
    expect(limited.answered.size).toBe(total);
    expect(counts(limited).every((n) => n === 1)).toBe(true);
  }, 120_000);

  test('with no rate-limit headers, 429s alone slow it to the service rate and nothing fails', async () => {
    const { jobs } = app();
    // Messages whose numbers start with 1: 1,111 of them.
    const job = jobs.create(setId, 'plain/jev-1', { kind: 'query', query: '1*' });
    // On a busy machine the job may never reach the service's rate by itself, so the service also refuses
    // everything for half a second once 100 answers are in: 429s (without headers) are certain either way.
    let seen = 0;
    const done = await jobs.run(job.id, {
      onProgress: () => {
        seen += 1;
        if (seen === 100) headerless.refuseFor(500, 200);
      },
    });
    expect(done).toMatchObject({ state: 'done', done: done.total, failed: 0 });
    expect(done.total).toBe(1111);
    expect(headerless.answered.size).toBe(done.total);
    expect(counts(headerless).every((n) => n === 1)).toBe(true);
    expect(headerless.refused.length).toBeGreaterThan(0);
  }, 120_000);
});
