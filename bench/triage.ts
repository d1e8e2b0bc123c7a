// A triage job against a rate-limited decision service (issue 6: "bench/triage prints messages/minute
// against the rate-limited local server and its ratio to the server's limit. Target: at least 95% of the
// limit, with zero repeated questions"). The server (fixtures/judge/decision-server.ts) enforces its
// requests-per-minute with a token bucket holding one second's worth and answers after a random latency.
// The job runs as the app runs it (prepareTriageJobs over a real SQLite file of imported mail).
// Comparison in the same run: the same job against the same limit from a server that sends no rate-limit
// headers (as System One), where only 429s and `retry-after` tell the job to slow down.
//
//   node bench/triage.ts [--messages 1500] [--rpm 1200] [--latency 100-400]
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { prepareServices } from '../electron/ai/services.ts';
import { prepareQuestionSets, starterQuestions } from '../electron/ai/triage/question-sets.ts';
import { prepareTriageJobs } from '../electron/ai/triage/triage-jobs.ts';
import { openDatabase } from '../electron/db/open.ts';
import { runImport } from '../electron/mail/import/import-run.ts';
import { fileSealer } from '../electron/secrets/file-vault.ts';
import { createKeyVault } from '../electron/secrets/key-vault.ts';
import { type DecisionServer, startDecisionServer } from '../fixtures/judge/decision-server.ts';
import { round } from './stats.ts';

const { values } = parseArgs({
  options: {
    messages: { type: 'string', default: '1500' },
    rpm: { type: 'string', default: '1200' },
    latency: { type: 'string', default: '100-400' },
  },
});
const messages = Number(values.messages);
const rpm = Number(values.rpm);
const [low, high] = String(values.latency).split('-').map(Number) as [number, number];

const dir = mkdtempSync(join(tmpdir(), 'skimmer-bench-triage-'));
try {
  const mbox = join(dir, 'mail.mbox');
  const parts: string[] = [];
  for (let i = 0; i < messages; i++)
    parts.push(
      [
        'From sender@example.com Sun Nov 29 10:00:00 2026',
        'From: Sender <sender@example.com>',
        'To: Me <me@example.com>',
        `Subject: Order ${i} needs attention`,
        `Message-ID: <b${i}@bench.test>`,
        'Date: Sun, 29 Nov 2026 10:00:00 +0000',
        '',
        `Hello, order ${i} is late. Please reply today.`,
        '',
      ].join('\r\n'),
    );
  writeFileSync(mbox, parts.join('\r\n'));
  const db = openDatabase(join(dir, 'skimmer.db'));
  await runImport(db, [mbox], { onProgress: () => {}, isCancelled: () => false });
  const services = prepareServices(db, createKeyVault(db, fileSealer(dir)));
  const set = prepareQuestionSets(db).save({ name: 'Starters', questions: starterQuestions });
  const jobs = prepareTriageJobs({ db, services });
  console.log(
    `${messages} messages, ${set.questions.length} questions each; server limit ${rpm} requests/minute ` +
      `(a bucket of one second's worth), latency ${low}–${high} ms`,
  );

  const results: Record<string, unknown>[] = [];
  for (const headers of [true, false]) {
    const name = headers ? 'headers' : 'no-headers';
    const server = await startDecisionServer({ rpm, latencyMs: [low, high], rateLimitHeaders: headers });
    await services.add({ name, kind: 'decisions', baseUrl: server.base });
    const job = jobs.create(set.id, `${name}/jev-1`, { kind: 'all' });
    const started = performance.now();
    const done = await jobs.run(job.id);
    const seconds = (performance.now() - started) / 1000;
    const r = figures(name, server, done.done, done.failed, seconds);
    results.push(r);
    await server.close();
  }
  console.log(JSON.stringify({ bench: 'triage', messages, rpm, latencyMs: [low, high], runs: results }));
  db.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}

function figures(name: string, server: DecisionServer, done: number, failed: number, seconds: number) {
  const perMinute = (done / seconds) * 60;
  // The steady rate, first answer to last, leaves out the one-second burst the bucket starts with.
  const first = server.arrivals[0] ?? 0;
  const last = server.arrivals.at(-1) ?? first;
  const steady = last > first ? ((server.arrivals.length - 1) / (last - first)) * 60_000 : 0;
  const repeated = [...server.answered.values()].filter((n) => n > 1).length;
  const r = {
    run: name,
    done,
    failed,
    seconds: round(seconds),
    perMinute: Math.round(perMinute),
    ratio: round(perMinute / rpm),
    steadyPerMinute: Math.round(steady),
    steadyRatio: round(steady / rpm),
    refused: server.refused.length,
    repeated,
    maxInFlight: server.maxInFlight(),
  };
  console.log(
    `${name.padEnd(10)}: ${done} answered (${failed} failed) in ${r.seconds} s = ${r.perMinute}/min, ` +
      `${round(r.ratio * 100)} % of the limit (steady ${r.steadyPerMinute}/min, ` +
      `${round(r.steadyRatio * 100)} %); ${r.refused} answered 429; ${repeated} asked twice; ` +
      `at most ${r.maxInFlight} at once`,
  );
  return r;
}
