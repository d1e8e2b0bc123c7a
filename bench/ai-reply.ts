// Time to a drafted reply (issue 17: "note on the issue what you measured: time to a draft against the local
// server"). The app as it runs (createApp over a real SQLite file, the demo mailbox imported) asks draft:aiReply
// for the last message of each thread with two or more messages, against a local Chat Completions server that
// answers at once, citing the first two sources with one made-up amount: so the figure is Skimmer's own part
// (loading the thread and the examples, the prompt, the HTTP round trip on loopback, the citation check, the
// facts check, composing and storing the draft). Separately: the facts check alone over a thread at the bound.
//
//   node bench/ai-reply.ts [--rounds 5]
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createApp } from '../electron/app.ts';
import { dispatch } from '../electron/bridge/dispatch.ts';
import { knownFacts, unverifiedFacts } from '../shared/compose/thread-facts.ts';
import { round, summary } from './stats.ts';

const { values } = parseArgs({ options: { rounds: { type: 'string', default: '5' } } });
const rounds = Number(values.rounds);

// Cites the first two sources of the system prompt, with an amount no demo message holds.
const server = createServer(async (req, res) => {
  let raw = '';
  for await (const chunk of req) raw += chunk;
  const system = (JSON.parse(raw) as { messages: { content: string }[] }).messages[0]?.content ?? '';
  const ids = [...system.matchAll(/source="source:([A-Za-z0-9_-]+)"/g)]
    .map((m) => m[1] as string)
    .slice(0, 2);
  const answer = `Thanks [${ids[0]}]. We can add $99,999 by Dec 31 at 4pm${ids[1] ? ` [${ids[1]}]` : ''}.`;
  const content = JSON.stringify({ answer, citations: ids });
  res
    .writeHead(200, { 'content-type': 'application/json' })
    .end(JSON.stringify({ choices: [{ index: 0, message: { role: 'assistant', content } }] }));
});
await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;

const dataDir = mkdtempSync(join(tmpdir(), 'skimmer-bench-ai-reply-'));
const app = createApp({ dataDir, mode: 'browser' });
try {
  const ok = async (channel: string, request: unknown) => {
    const r = await dispatch(app.handlers, channel, request, true);
    if (!r.ok) throw new Error(`${channel}: ${r.error.message}`);
    return r.value as Record<string, unknown>;
  };
  // The demo mailbox, imported as the page's "Try the demo mailbox" does.
  const importing = (await ok('mail:import', { demo: true })) as { streamId: string };
  await new Promise<void>((resolve) => {
    const off = app.streams.listen((m) => {
      if (m.streamId === importing.streamId && m.event.type === 'import_done') {
        off();
        resolve();
      }
    });
  });
  await ok('service:add', { name: 'local', kind: 'openai', baseUrl: base });
  const answered = app.db
    .prepare(
      `SELECT max(m.id) FROM messages m JOIN threads t ON t.id = m.thread_id WHERE t.message_count >= 2
         GROUP BY t.id ORDER BY t.id`,
    )
    .pluck()
    .all() as number[];

  const times: number[] = [];
  let flagged = 0;
  for (let round_ = 0; round_ < rounds + 1; round_++) {
    for (const message of answered) {
      const started = performance.now();
      const { streamId } = (await ok('draft:aiReply', { message, model: 'local/bench' })) as {
        streamId: string;
      };
      const end = await new Promise<Record<string, unknown>>((resolve) => {
        const off = app.streams.listen((m) => {
          if (m.streamId !== streamId) return;
          if (m.event.type === 'draft_reply_done' || m.event.type === 'error') {
            off();
            resolve(m.event as unknown as Record<string, unknown>);
          }
        });
      });
      const took = performance.now() - started;
      if (end.type !== 'draft_reply_done') throw new Error(`no draft: ${JSON.stringify(end)}`);
      const result = end.result as { draft: { id: number }; unverified: unknown[] };
      // The first round warms up; its drafts are discarded like the rest.
      if (round_ > 0) {
        times.push(took);
        flagged += result.unverified.length;
      }
      await ok('draft:discard', { id: result.draft.id });
    }
  }
  // The comparison: a summary of the same threads (summary:thread, refreshed so none comes from the cache),
  // the grounded answer without the examples, the facts check and the draft.
  const threadOf = app.db.prepare<[number], number>('SELECT thread_id FROM messages WHERE id = ?').pluck();
  const summaries: number[] = [];
  for (let round_ = 0; round_ < rounds + 1; round_++) {
    for (const message of answered) {
      const started = performance.now();
      const { streamId } = (await ok('summary:thread', {
        threadId: threadOf.get(message),
        model: 'local/bench',
        refresh: true,
      })) as { streamId: string };
      await new Promise<void>((resolve, reject) => {
        const off = app.streams.listen((m) => {
          if (m.streamId !== streamId) return;
          if (m.event.type === 'summary_done' || m.event.type === 'error') {
            off();
            if (m.event.type === 'error') reject(new Error(m.event.error.message));
            else resolve();
          }
        });
      });
      if (round_ > 0) summaries.push(performance.now() - started);
    }
  }

  const s = summary(times);
  const sum = summary(summaries);
  console.log(`threads answered: ${answered.length}, rounds: ${rounds}`);
  console.log(
    `time to a draft (ms): median ${s.median}, p90 ${s.p90}, max ${s.max} (${times.length} drafts)`,
  );
  console.log(`a summary of the same thread (ms): median ${sum.median}, p90 ${sum.p90}, max ${sum.max}`);
  console.log(`unverified facts flagged per draft: ${round(flagged / times.length)} (3 made up in each)`);

  // The facts check alone: a thread at the 32 KiB bound, full of amounts, dates and times.
  const line =
    'We paid $40,000 on Dec 14 at 3pm, 12 more on 2026-12-20 at 15:30, and 40k again on the 21st. ';
  const thread = line.repeat(Math.floor((32 * 1024) / line.length));
  const draft = `${line} And $45,000 on Dec 15 at 4pm.`;
  const checks: number[] = [];
  for (let i = 0; i < 21; i++) {
    const t = performance.now();
    unverifiedFacts(draft, knownFacts([thread]));
    if (i > 0) checks.push(performance.now() - t);
  }
  const c = summary(checks);
  console.log(`facts check over a 32 KiB thread (ms): median ${c.median}, max ${c.max}`);
  console.log(
    JSON.stringify({
      bench: 'ai-reply',
      threads: answered.length,
      rounds,
      draftMs: s,
      summaryMs: sum,
      flaggedPerDraft: flagged / times.length,
      factsCheck32KiBMs: c,
    }),
  );
} finally {
  await app.close();
  server.close();
  rmSync(dataDir, { recursive: true, force: true });
}
