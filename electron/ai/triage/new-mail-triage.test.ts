// Question sets on new mail (issue 17) on a real SQLite file, mail imported as the app imports it, and a local
// server speaking the OpenAI Decisions shape: a job starts only for the sets turned on and only over the mail
// stored since, and a service off this computer without the user's consent gets no job and no mail.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type ReplayServer, startReplayServer } from '../../../fixtures/judge/replay-server.ts';
import { eml, tempDir } from '../../../test/support/temp.ts';
import { type Db, openDatabase } from '../../db/open.ts';
import { runImport } from '../../mail/import/import-run.ts';
import { fileSealer } from '../../secrets/file-vault.ts';
import { createKeyVault } from '../../secrets/key-vault.ts';
import { prepareServices } from '../services.ts';
import { prepareNewMailTriage } from './new-mail-triage.ts';
import { prepareQuestionSets } from './question-sets.ts';
import { prepareTriageJobs } from './triage-jobs.ts';

const judgeDir = join(import.meta.dirname, '..', '..', '..', 'fixtures', 'judge');
const questions = JSON.parse(readFileSync(join(judgeDir, 'questions', 'support.json'), 'utf8'));
let server: ReplayServer;
let db: Db;
let services: ReturnType<typeof prepareServices>;
let jobs: ReturnType<typeof prepareTriageJobs>;
let newMail: ReturnType<typeof prepareNewMailTriage>;
let mailDir = '';
let sets: ReturnType<typeof prepareQuestionSets>;
let batch = 0;

// Imports `n` new messages as the import worker stores them; resolves with their ids.
async function arrive(n: number): Promise<number[]> {
  batch += 1;
  const dir = join(mailDir, `batch${batch}`);
  mkdirSync(dir);
  for (let i = 0; i < n; i++) {
    writeFileSync(join(dir, `${i}.eml`), eml({ id: `<b${batch}-${i}@x>`, subject: `Batch ${batch} ${i}` }));
  }
  const before = db.prepare('SELECT coalesce(max(id), 0) FROM messages').pluck().get() as number;
  await runImport(db, [dir], { onProgress: () => {}, isCancelled: () => false });
  return db.prepare('SELECT id FROM messages WHERE id > ? ORDER BY id').pluck().all(before) as number[];
}
const itemsOf = (jobId: number) =>
  db.prepare('SELECT message FROM triage_items WHERE job_id = ? ORDER BY message').pluck().all(jobId);
const jobCount = () => db.prepare('SELECT count(*) FROM triage_jobs').pluck().get();

beforeAll(async () => {
  const dir = tempDir();
  mailDir = tempDir();
  db = openDatabase(join(dir, 'skimmer.db'));
  services = prepareServices(db, createKeyVault(db, fileSealer(dir)));
  server = await startReplayServer();
  server.serve({
    status: 200,
    headers: { 'content-type': 'application/json', 'x-request-id': 'req_1' },
    body: readFileSync(join(judgeDir, 'decisions', 'all-types.body')),
  });
  await services.add({ name: 'dec', kind: 'decisions', baseUrl: server.base });
  // Off this computer and never allowed to read mail: never contacted here.
  await services.add({ name: 'far', kind: 'decisions', baseUrl: 'https://decisions.example.com/v1' });
  sets = prepareQuestionSets(db);
  jobs = prepareTriageJobs({ db, services });
  newMail = prepareNewMailTriage({ db, services }, jobs);
  await arrive(3); // mail that was here before any set ran on new mail
});

afterAll(async () => {
  await server?.close();
  db?.close();
});

describe('triage on new mail', () => {
  test('starts no job while no set runs on new mail', async () => {
    sets.save({ name: 'Off', questions });
    await arrive(1);
    expect(newMail.arrived()).toEqual([]);
    expect(jobCount()).toBe(0);
  });

  test('a set turned on gets one job over exactly the mail stored since, and asks about it', async () => {
    const on = sets.save({ name: 'On', questions });
    expect(newMail.set(on.id, 'dec/gpt-6-luna').newMail).toEqual({ model: 'dec/gpt-6-luna', error: null });
    const fresh = await arrive(2);
    const started = newMail.arrived();
    expect(started).toHaveLength(1);
    expect(started[0]).toMatchObject({
      setId: on.id,
      model: 'dec/gpt-6-luna',
      scope: { kind: 'new_mail', messages: 2 },
    });
    expect(itemsOf(started[0]?.id ?? 0)).toEqual(fresh);
    await expect.poll(() => jobs.get(started[0]?.id ?? 0).state).toBe('done');
    expect(server.received).toHaveLength(2);
    // Nothing new since: nothing starts, and nothing is asked twice.
    expect(newMail.arrived()).toEqual([]);
    newMail.set(on.id, null);
  });

  test('turning a set on for a service without consent for mail is refused with its sentence', () => {
    const far = sets.save({ name: 'Far', questions });
    expect(() => newMail.set(far.id, 'far/gpt-6-luna')).toThrow(/has not sent mail to/);
    expect(sets.get(far.id).newMail).toBeNull();
  });

  test('consent withdrawn after turning it on: no job, no mail sent, and the set says why', async () => {
    const far = sets.list().find((s) => s.name === 'Far');
    const farId = services.idByName('far');
    services.setMailConsent(farId, true);
    newMail.set(far?.id ?? 0, 'far/gpt-6-luna');
    services.setMailConsent(farId, false);
    const jobsBefore = jobCount();
    await arrive(2);
    expect(newMail.arrived()).toEqual([]);
    expect(jobCount()).toBe(jobsBefore);
    expect(sets.get(far?.id ?? 0).newMail?.error).toMatch(
      /^2 new messages were not triaged: .*has not sent mail to/,
    );
    // That mail is not asked about later: the next arrival is its own.
    services.setMailConsent(farId, true);
    const next = await arrive(1);
    // A service off this computer is never contacted in this test: the job is created, not run.
    const notRun = prepareNewMailTriage(
      { db, services },
      {
        createForNewMail: jobs.createForNewMail,
        pause: jobs.pause,
        run: (id) => Promise.resolve(jobs.get(id)),
      },
    );
    const started = notRun.arrived();
    expect(started.map((j) => itemsOf(j.id))).toEqual([next]);
    expect(sets.get(far?.id ?? 0).newMail?.error).toBeNull();
    newMail.set(far?.id ?? 0, null);
  });

  test('more new messages at once than an arrival brings get a paused job, which says so', async () => {
    const bulk = sets.save({ name: 'Bulk', questions });
    const atOnce = prepareNewMailTriage({ db, services }, jobs, () => {}, 2);
    atOnce.set(bulk.id, 'dec/gpt-6-luna');
    const asked = server.received.length;
    const fresh = await arrive(3);
    const [job] = atOnce.arrived();
    expect(job).toMatchObject({ setId: bulk.id, state: 'paused', scope: { kind: 'new_mail', messages: 3 } });
    expect(jobs.get(job?.id ?? 0).state).toBe('paused');
    expect(itemsOf(job?.id ?? 0)).toEqual(fresh);
    expect(sets.get(bulk.id).newMail?.error).toBe('3 new messages came at once: their job waits for Resume.');
    expect(server.received).toHaveLength(asked);
    // Two at a time is arrival: run at once.
    await arrive(2);
    const [next] = atOnce.arrived();
    await expect.poll(() => jobs.get(next?.id ?? 0).state).toBe('done');
    expect(sets.get(bulk.id).newMail?.error).toBeNull();
    atOnce.set(bulk.id, null);
  });
});
