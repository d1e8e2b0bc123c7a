// Warnings computed per 1,000 messages (DESIGN §11, "Warnings"), on the database bench/import.ts leaves behind
// and on the demo mailbox (which has the phishing, hidden-text and link cases the synthetic corpus lacks):
//   - load: reading the domains you know from the whole mailbox (once per import, sync or backfill);
//   - compute: messageWarnings alone, per 1,000 messages (the synthetic corpus, then the demo's 60 repeated);
//   - backfill: checking and storing 1,000 messages that have no row yet, as the app does after an upgrade.
// Prints one JSON object.
//
//   node bench/warnings.ts [--count 5000] [--rounds 5]
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { openDatabase } from '../electron/db/open.ts';
import { parseMessage } from '../electron/mail/import/parse.ts';
import { loadDomainBook } from '../electron/mail/warnings/known-domains.ts';
import { messageWarnings, type WarningInput } from '../electron/mail/warnings/message-warnings.ts';
import { prepareWarnings } from '../electron/mail/warnings/warning-store.ts';
import { benchDir, ensureDatabase } from './corpus.ts';
import { round, summary } from './stats.ts';

const { values } = parseArgs({
  options: { count: { type: 'string', default: '5000' }, rounds: { type: 'string', default: '5' } },
});
const rounds = Number(values.rounds);
const db = openDatabase(ensureDatabase(Number(values.count)));
const messages = db.prepare('SELECT count(*) FROM messages').pluck().get() as number;

const loads: number[] = [];
let book = loadDomainBook(db);
for (let i = 0; i < rounds; i++) {
  const t = performance.now();
  book = loadDomainBook(db);
  loads.push(performance.now() - t);
}

type Row = { from_name: string; from_addr: string; body_text: string; body_html: string | null };
const corpus: WarningInput[] = db
  .prepare<[], Row>('SELECT from_name, from_addr, body_text, body_html FROM messages ORDER BY id LIMIT 1000')
  .all()
  .map((r) => ({
    from: { name: r.from_name, address: r.from_addr },
    text: r.body_text,
    html: r.body_html,
    trust: { authenticationResults: [], replyTo: [] },
  }));

const demoDir = join(benchDir, '../fixtures/demo');
const demoParsed = await Promise.all(
  readdirSync(demoDir)
    .filter((f) => f.endsWith('.eml'))
    .map((f) => parseMessage(readFileSync(join(demoDir, f)))),
);
const demo: WarningInput[] = Array.from(
  { length: 1000 },
  (_, i) => demoParsed[i % demoParsed.length],
).flatMap((m) => (m ? [m] : []));

function perThousand(inputs: readonly WarningInput[]): {
  median: number;
  p90: number;
  p99: number;
  max: number;
} {
  const times: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const t = performance.now();
    for (const m of inputs) messageWarnings(m, book.known);
    times.push(((performance.now() - t) * 1000) / inputs.length);
  }
  return summary(times);
}

// The backfill on the whole database: every row dropped, then checked again 1,000 at a time.
db.exec('DELETE FROM message_warnings');
const warnings = prepareWarnings(db);
const slices: number[] = [];
for (;;) {
  const t = performance.now();
  const n = warnings.backfill(1000);
  if (n === 0) break;
  slices.push(((performance.now() - t) * 1000) / n);
}
const warned = db.prepare("SELECT count(*) FROM message_warnings WHERE warnings_json <> '[]'").pluck().get();

console.log(
  JSON.stringify({
    messages,
    knownDomains: book.known.size,
    loadMs: summary(loads),
    computeMsPer1000: { corpus: perThousand(corpus), demo: perThousand(demo) },
    backfillMsPer1000: summary(slices),
    backfillSlices: slices.length,
    warnedAfterBackfill: warned,
    rounds,
    note: `milliseconds; ${round(messages / 1000)}k-message database`,
  }),
);
db.close();
