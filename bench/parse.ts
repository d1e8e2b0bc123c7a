// Parse speed and charset correctness of postal-mime 4 against mailparser (with Skimmer's options) on
// the same corpus, plus Skimmer's own parseMessage (mailparser + html-to-text fallback + SHA-256), which is
// what the import pays per message. Messages are split first and held in memory, so split time is
// reported separately and no parser waits on the disk.
//
//   node bench/parse.ts [--count 20000] [--mbox FILE] [--rounds 1]
import { createReadStream, readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { simpleParser } from 'mailparser';
import PostalMime from 'postal-mime';
import { parseMessage } from '../electron/mail/import/parse.ts';
import { maxStoredText } from '../electron/mail/import/parse-bounds.ts';
import { splitMbox } from '../electron/mail/import/sources.ts';
import { ensureCorpus } from './corpus.ts';
import { type ExpectedLine, expectedPath } from './generate-mailbox.ts';
import { mb, round } from './stats.ts';

type Parsed = { messageId: string; subject: string; text: string };
type Parser = (raw: Buffer) => Promise<Parsed>;

const parsers: Record<string, Parser> = {
  // The options electron/mail/import/parse.ts passes.
  mailparser: async (raw) => {
    const m = await simpleParser(raw, {
      skipImageLinks: true,
      skipTextLinks: true,
      skipTextToHtml: true,
      keepCidLinks: true,
      maxHtmlLengthToParse: maxStoredText,
    });
    return { messageId: m.messageId ?? '', subject: m.subject ?? '', text: m.text ?? '' };
  },
  'postal-mime': async (raw) => {
    const m = await PostalMime.parse(raw);
    return { messageId: m.messageId ?? '', subject: m.subject ?? '', text: m.text ?? '' };
  },
  'skimmer parseMessage': async (raw) => {
    const m = await parseMessage(raw);
    return { messageId: `<${m.messageId.replace(/^<|>$/g, '')}>`, subject: m.subject, text: m.text };
  },
};

type Tally = { total: number; subjectOk: number; bodyOk: number };

const { values } = parseArgs({
  options: {
    count: { type: 'string', default: '20000' },
    mbox: { type: 'string' },
    rounds: { type: 'string', default: '1' },
  },
});
const { mbox, expected } = values.mbox
  ? { mbox: values.mbox, expected: expectedPath(values.mbox) }
  : ensureCorpus(Number(values.count));

const splitStart = performance.now();
const messages: Buffer[] = [];
for await (const m of splitMbox(createReadStream(mbox, { highWaterMark: 1024 * 1024 }))) messages.push(m.raw);
const splitSeconds = (performance.now() - splitStart) / 1000;
const bytes = messages.reduce((n, m) => n + m.length, 0);
// The generator writes Content-Disposition only on attachment parts.
const withAttachments = messages.map((m) => m.includes('\nContent-Disposition: '));
const expectations = new Map<string, ExpectedLine>();
for (const line of readFileSync(expected, 'utf8').split('\n')) {
  if (!line) continue;
  const e = JSON.parse(line) as ExpectedLine;
  expectations.set(bareId(e.messageId), e);
}
console.log(
  `Corpus: ${messages.length} messages, ${mb(bytes)} MB (${withAttachments.filter(Boolean).length} with attachments), split in ${round(splitSeconds)} s; ${expectations.size} legacy-charset messages to check. Node ${process.version}.`,
);

const results: Record<string, unknown> = {};
for (const [name, parse] of Object.entries(parsers)) {
  // A cold JIT favours whichever parser is smaller (feasibility §C), so every parser gets the same warm-up.
  for (const raw of messages.slice(0, 300)) await parse(raw).catch(() => undefined);
  let best: { seconds: number; plainSeconds: number; failures: number } | null = null;
  const charset: Record<string, Tally> = {};
  for (let round = 0; round < Number(values.rounds); round++) {
    let plainSeconds = 0;
    let failures = 0;
    const start = performance.now();
    for (let i = 0; i < messages.length; i++) {
      const raw = messages[i] as Buffer;
      const t = performance.now();
      let parsed: Parsed;
      try {
        parsed = await parse(raw);
      } catch {
        failures++;
        continue;
      }
      if (!withAttachments[i]) plainSeconds += (performance.now() - t) / 1000;
      if (round === 0) check(parsed, charset);
    }
    const seconds = (performance.now() - start) / 1000;
    if (!best || seconds < best.seconds) best = { seconds, plainSeconds, failures };
  }
  if (!best) throw new Error('--rounds must be at least 1');
  const plainCount = withAttachments.filter((a) => !a).length;
  const total = Object.values(charset).reduce(
    (t, c) => ({
      total: t.total + c.total,
      subjectOk: t.subjectOk + c.subjectOk,
      bodyOk: t.bodyOk + c.bodyOk,
    }),
    { total: 0, subjectOk: 0, bodyOk: 0 },
  );
  const row = {
    seconds: round(best.seconds),
    perSecond: round(messages.length / best.seconds),
    mbPerSecond: round(mb(bytes) / best.seconds),
    withoutAttachmentsPerSecond: round(plainCount / best.plainSeconds),
    failures: best.failures,
    subjectsCorrect: total.subjectOk,
    bodiesCorrect: total.bodyOk,
    legacyMessages: total.total,
    byCharset: charset,
  };
  results[name] = row;
  const wrong = Object.entries(charset)
    .filter(([, c]) => c.subjectOk < c.total || c.bodyOk < c.total)
    .map(([cs, c]) => `${cs} subjects ${c.subjectOk}/${c.total}, bodies ${c.bodyOk}/${c.total}`);
  console.log(
    `${name.padEnd(21)} ${row.perSecond} msg/s (${row.mbPerSecond} MB/s, ${row.seconds} s); without attachments ${row.withoutAttachmentsPerSecond} msg/s; ` +
      `legacy charsets: subjects ${total.subjectOk}/${total.total}, bodies ${total.bodyOk}/${total.total}` +
      (wrong.length > 0 ? ` — wrong: ${wrong.join('; ')}` : '') +
      (best.failures > 0 ? `; ${best.failures} failed` : ''),
  );
}

console.log(
  JSON.stringify({
    bench: 'parse',
    node: process.version,
    messages: messages.length,
    mb: mb(bytes),
    splitSeconds: round(splitSeconds),
    rounds: Number(values.rounds),
    parsers: results,
  }),
);

function check(parsed: Parsed, charset: Record<string, Tally>): void {
  const e = expectations.get(bareId(parsed.messageId));
  if (!e) return;
  const t = charset[e.charset] ?? { total: 0, subjectOk: 0, bodyOk: 0 };
  charset[e.charset] = t;
  t.total++;
  if (parsed.subject === e.subject) t.subjectOk++;
  if (squash(parsed.text).includes(squash(e.phrase))) t.bodyOk++;
}

function bareId(id: string): string {
  return id.trim().replace(/^<|>$/g, '');
}

function squash(s: string): string {
  return s.replace(/\s+/g, ' ');
}
