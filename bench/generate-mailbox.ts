// Writes a deterministic synthetic mbox (mboxrd) shaped like feasibility §C's corpus: ~40 % text/plain,
// ~44 % multipart/alternative, ~16 % multipart/mixed with 1–3 attachments, ~12 % legacy charsets, ~30 %
// replies. Beside it, `<name>.expected.jsonl` lists every legacy-charset message with the subject and a
// body line a correct parser must decode (bench/parse.ts checks them).
//
// `--small` writes everyday mail instead (issue 18): ~55 % text/plain, ~42 % multipart/alternative, ~3 %
// with one small attachment, and the words people search most in most messages: about 75 % say "thanks"
// and about 65 % "meeting", in every language, as they do in a real mailbox. Words that match most of the
// mail are the case where a search that ranks or cuts snippets for every match is slowest.
//
//   node bench/generate-mailbox.ts [--count 20000] [--small] [--out bench/out/mailbox-20k.mbox] [--seed 1]
import { closeSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { parseArgs } from 'node:util';
import {
  attachment,
  greeting,
  htmlBody,
  type Locale,
  type Person,
  paragraphs,
  rootSubject,
  textBody,
} from './mailbox/compose.ts';
import { asctime, rfc2822Date } from './mailbox/dates.ts';
import {
  base64Lines,
  type Charset,
  charsetLabel,
  encodedWords,
  escapeFromLines,
  foldHeader,
  isAscii,
} from './mailbox/mime.ts';
import { address, headerText, type Part, textPart } from './mailbox/parts.ts';
import { me, people, zone } from './mailbox/people.ts';
import { seededRandom } from './mailbox/random.ts';
import { newsletterTopics, organisations, topics } from './mailbox/words.ts';

export type ExpectedLine = { messageId: string; charset: Charset; subject: string; phrase: string };

export type GenerateSummary = {
  messages: number;
  textPlain: number;
  alternative: number;
  mixed: number;
  attachments: number;
  quotedPrintableParts: number;
  base64BodyParts: number;
  encodedWordSubjects: { B: number; Q: number };
  nonUtf8: number;
  nonUtf8ByCharset: Record<string, number>;
  replies: number;
  fromLinesEscaped: number;
  bytes: number;
  seconds: number;
  out: string;
  expected: string;
};

const locales: readonly (readonly [Locale, number])[] = [
  [{ lang: 'en', charset: 'utf-8' }, 70],
  [{ lang: 'de', charset: 'utf-8' }, 5],
  [{ lang: 'fr', charset: 'utf-8' }, 2],
  [{ lang: 'pl', charset: 'utf-8' }, 3],
  [{ lang: 'ru', charset: 'utf-8' }, 3],
  [{ lang: 'ja', charset: 'utf-8' }, 2],
  [{ lang: 'zh', charset: 'utf-8' }, 2],
  [{ lang: 'ko', charset: 'utf-8' }, 1],
  // 12 %: legacy charsets, as old archives and some regions still send them.
  [{ lang: 'de', charset: 'iso-8859-1' }, 1.2],
  [{ lang: 'fr', charset: 'iso-8859-1' }, 0.8],
  [{ lang: 'en', charset: 'windows-1252' }, 2],
  [{ lang: 'pl', charset: 'iso-8859-2' }, 1.5],
  [{ lang: 'ru', charset: 'koi8-r' }, 1.5],
  [{ lang: 'ja', charset: 'shift_jis' }, 1],
  [{ lang: 'ja', charset: 'iso-2022-jp' }, 1],
  [{ lang: 'zh', charset: 'gb2312' }, 0.75],
  [{ lang: 'zh', charset: 'gb18030' }, 0.5],
  [{ lang: 'zhTW', charset: 'big5' }, 0.75],
  [{ lang: 'ko', charset: 'euc-kr' }, 1],
];

type Meta = {
  id: string;
  subject: string;
  locale: Locale;
  topic: string;
  from: Person;
  to: Person;
  refs: string[];
  quote: string[];
  date: string;
};

export function expectedPath(mbox: string): string {
  return `${mbox.replace(/\.mbox$/, '')}.expected.jsonl`;
}

// Sentences of everyday mail, one of them in most messages of the small corpus (`--small`).
const everydayThanks = [
  'Thanks for the quick reply.',
  'Thanks again for your help with this.',
  'Many thanks for sending it over.',
  'Thanks, that works for me.',
];
const everydayMeeting = [
  'Can we talk about it at the meeting on Monday?',
  'I moved our meeting to Thursday afternoon.',
  'Notes from the meeting are attached below.',
  'Let me know if the meeting time still suits you.',
];

export function generateMailbox(opts: {
  count: number;
  out: string;
  seed?: number;
  small?: boolean;
}): GenerateSummary {
  const small = opts.small ?? false;
  const started = performance.now();
  const r = seededRandom(opts.seed ?? 1);
  const pool = r.bytes(4 * 1024 * 1024);
  const byLang = people();
  const counts: GenerateSummary = {
    messages: 0,
    textPlain: 0,
    alternative: 0,
    mixed: 0,
    attachments: 0,
    quotedPrintableParts: 0,
    base64BodyParts: 0,
    encodedWordSubjects: { B: 0, Q: 0 },
    nonUtf8: 0,
    nonUtf8ByCharset: {},
    replies: 0,
    fromLinesEscaped: 0,
    bytes: 0,
    seconds: 0,
    out: opts.out,
    expected: expectedPath(opts.out),
  };
  mkdirSync(dirname(opts.out), { recursive: true });
  const fd = openSync(opts.out, 'w');
  const expectedFd = openSync(counts.expected, 'w');
  const write = (buf: Buffer) => {
    writeSync(fd, buf);
    counts.bytes += buf.length;
  };
  const replyable: Meta[] = [];
  let clock = Date.UTC(2023, 0, 2, 8, 0, 0);

  for (let seq = 0; seq < opts.count; seq++) {
    clock += Math.round(-Math.log(1 - r.next()) * 55 * 60000); // exponential gaps, mean 55 minutes
    const year = new Date(clock).getUTCFullYear();
    const parent =
      replyable.length > 20 && r.chance(0.3)
        ? (replyable[replyable.length - 1 - r.int(Math.min(400, replyable.length))] as Meta)
        : null;
    const locale = parent ? parent.locale : r.weighted(locales);
    const kind = r.weighted(
      small
        ? ([
            ['plain', 55],
            ['alternative', 42],
            ['mixed', 3],
          ] as const)
        : ([
            ['plain', 40],
            ['alternative', 44],
            ['mixed', 16],
          ] as const),
    );
    const org =
      !parent && kind === 'alternative' && locale.lang === 'en' && r.chance(0.5)
        ? r.pick(organisations)
        : null;
    const topic = parent
      ? parent.topic
      : org
        ? org.topic
        : r.pick(Object.keys(topics).filter((t) => !newsletterTopics.includes(t) || r.chance(0.5)));
    const local = byLang[locale.lang];

    let from: Person;
    let to: Person;
    if (org) {
      from = { name: org.name, first: org.name, address: org.address, lang: 'en' };
      to = me;
    } else if (parent) {
      if (parent.from === me) [from, to] = [parent.to, me];
      else if (r.chance(0.6)) [from, to] = [me, parent.from];
      else [from, to] = [r.pick(local), me];
    } else if (r.chance(0.2)) [from, to] = [me, r.pick(local)];
    else [from, to] = [r.pick(local), me];
    const cc = !org && r.chance(0.2) ? Array.from({ length: r.between(1, 2) }, () => r.pick(local)) : [];

    const subject = parent
      ? `${r.pick(locale.lang === 'de' ? ['Re: ', 'AW: '] : locale.lang === 'pl' ? ['Re: ', 'Odp: '] : ['Re: ', 'RE: '])}${parent.subject.replace(/^((re|aw|odp):\s*)+/i, '')}`
      : rootSubject(r, locale, topic, year);
    const domain = from.address.split('@')[1] ?? 'mail.example';
    const id = `<${seq.toString(36)}.${r.hex(12)}.${year}@${domain}>`;
    const offset = r.pick(zone[locale.lang]);
    const date = rfc2822Date(clock, offset as number);
    const opening = greeting(r, locale, to);
    const paras = paragraphs(r, locale, topic, small ? 2 : 5);
    if (small) {
      if (r.chance(0.65)) paras.splice(r.int(paras.length + 1), 0, r.pick(everydayMeeting));
      if (r.chance(0.75)) paras.push(r.pick(everydayThanks));
    }
    const body = textBody(
      r,
      locale,
      opening,
      paras,
      from,
      parent ? { quote: parent.quote, from: parent.from, date: parent.date } : null,
    );

    const headers = [
      `Return-Path: <${from.address}>`,
      `Received: from mx${r.between(1, 9)}.${domain} (mx${r.between(1, 9)}.${domain} [198.51.100.${r.between(1, 254)}])\n\tby mx.home.example (Postfix) with ESMTPS id ${r.hex(10).toUpperCase()}\n\tfor <${me.address}>; ${date}`,
      `Received: from [10.${r.between(0, 255)}.${r.between(0, 255)}.${r.between(1, 254)}] (unknown [10.0.0.${r.between(1, 254)}])\n\tby mx${r.between(1, 9)}.${domain} with ESMTPSA id ${r.hex(8)};\n\t${date}`,
    ];
    if (r.chance(0.5)) {
      headers.push(
        `DKIM-Signature: v=1; a=rsa-sha256; c=relaxed/relaxed; d=${domain}; s=mail;\n\th=from:to:subject:date:message-id; bh=${r.bytes(32).toString('base64')};\n\tb=${r
          .bytes(96)
          .toString('base64')
          .replace(/(.{70})/g, '$1\n\t ')}`,
      );
    }
    headers.push(`Message-ID: ${id}`, `Date: ${date}`, `From: ${address(r, from, locale.charset)}`);
    headers.push(`To: ${address(r, to, locale.charset)}`);
    if (cc.length > 0) headers.push(`Cc: ${cc.map((p) => address(r, p, locale.charset)).join(',\n ')}`);
    if (isAscii(subject)) headers.push(foldHeader('Subject', subject));
    else {
      // Clients keep the reply prefix as plain text in front of the encoded words.
      const prefix = /^(Re|RE|AW|Odp): /.exec(subject)?.[0] ?? '';
      headers.push(
        `Subject: ${prefix}${headerText(r, subject.slice(prefix.length), locale.charset, counts)}`,
      );
    }
    const refs = parent ? [...parent.refs.slice(-9), parent.id] : [];
    if (parent) headers.push(`In-Reply-To: ${parent.id}`, `References: ${refs.join('\n ')}`);
    headers.push('MIME-Version: 1.0');
    if (org) {
      headers.push(
        `List-Unsubscribe: <https://lists.example/u/${r.hex(16)}>, <mailto:unsubscribe@${domain}?subject=unsubscribe>`,
      );
      headers.push(
        'List-Unsubscribe-Post: List-Unsubscribe=One-Click',
        'Precedence: bulk',
        `X-Campaign: ${r.hex(8)}`,
      );
    } else
      headers.push(
        r.pick([
          'User-Agent: Mozilla Thunderbird 115.6',
          'X-Mailer: Microsoft Outlook 16.0',
          'X-Mailer: Apple Mail (2.3731)',
          'User-Agent: Mutt/2.2.9',
        ]),
      );

    const label = charsetLabel[locale.charset];
    const plain = textPart(r, 'plain', body.text, locale.charset, counts);
    const alternative = () => {
      const html = textPart(
        r,
        'html',
        htmlBody(r, label, subject, opening, paras, org !== null),
        locale.charset,
        counts,
      );
      return multipart('alternative', [plain, html]);
    };
    const multipart = (sub: string, parts: Part[]): Part => {
      const boundary = `----=_Part_${seq}_${r.hex(12)}`;
      const chunks: (Buffer | string)[] = [];
      for (const p of parts) {
        chunks.push(escapeIf(`--${boundary}\n${p.headers.join('\n')}\n\n`, true));
        chunks.push(escapeIf(p.body, p.escape));
        if (typeof p.body === 'string' ? !p.body.endsWith('\n') : p.body[p.body.length - 1] !== 0x0a)
          chunks.push('\n');
      }
      chunks.push(`--${boundary}--\n`);
      return {
        headers: [`Content-Type: multipart/${sub};\n boundary="${boundary}"`],
        body: Buffer.concat(chunks.map(toBuf)),
        escape: false,
      };
    };

    let top: Part;
    if (kind === 'plain') {
      counts.textPlain++;
      top = plain;
    } else if (kind === 'alternative') {
      counts.alternative++;
      top = alternative();
    } else {
      counts.mixed++;
      const n = small ? 1 : r.between(1, 3);
      const files = Array.from({ length: n }, () => attachment(r, pool, topic, year, small));
      counts.attachments += n;
      const fileParts = files.map((f): Part => {
        const ascii = isAscii(f.filename);
        const nameParam = ascii ? `name="${f.filename}"` : `name="${encodedWords(f.filename, 'utf-8', 'B')}"`;
        const fileParam = ascii
          ? `filename="${f.filename}"`
          : `filename*=UTF-8''${encodeURIComponent(f.filename)}`;
        const hs = [
          `Content-Type: ${f.contentType}; ${nameParam}`,
          `Content-Disposition: ${f.inline ? 'inline' : 'attachment'};\n ${fileParam}`,
          'Content-Transfer-Encoding: base64',
        ];
        if (f.inline) hs.push(`Content-ID: <${r.hex(16)}@${domain}>`);
        return { headers: hs, body: `${base64Lines(f.data)}\n`, escape: false };
      });
      const first = r.chance(0.4) ? alternative() : plain;
      top = multipart('mixed', [first, ...fileParts]);
    }

    if (locale.charset !== 'utf-8') {
      counts.nonUtf8++;
      counts.nonUtf8ByCharset[locale.charset] = (counts.nonUtf8ByCharset[locale.charset] ?? 0) + 1;
      const line: ExpectedLine = { messageId: id, charset: locale.charset, subject, phrase: opening };
      writeSync(expectedFd, `${JSON.stringify(line)}\n`);
    }
    if (parent) counts.replies++;

    const head = escapeIf(`${headers.join('\n')}\n${top.headers.join('\n')}\n\n`, true);
    const message = [`From ${from.address} ${asctime(clock)}\n`, head];
    if (kind !== 'plain') message.push('This is a multi-part message in MIME format.\n\n');
    message.push(escapeIf(top.body, top.escape), '\n'); // the blank line that ends an mbox message
    write(Buffer.concat(message.map(toBuf)));
    counts.messages++;

    if (!org) {
      replyable.push({ id, subject, locale, topic, from, to, refs, quote: body.quote, date });
      if (replyable.length > 2000) replyable.splice(0, 1000);
    }
  }
  closeSync(fd);
  closeSync(expectedFd);
  counts.seconds = Math.round((performance.now() - started) / 100) / 10;
  return counts;

  function escapeIf(content: Buffer | string, mayHoldFromLines: boolean): Buffer | string {
    if (!mayHoldFromLines) return content;
    const latin1 = typeof content === 'string' ? content : content.toString('latin1');
    if (!latin1.includes('From ')) return content;
    const { text, escaped } = escapeFromLines(latin1);
    if (escaped === 0) return content;
    counts.fromLinesEscaped += escaped;
    return typeof content === 'string' ? text : Buffer.from(text, 'latin1');
  }
}

function toBuf(c: Buffer | string): Buffer {
  // Strings here are ASCII (headers, QP, base64) or UTF-8 text in a 7bit/8bit UTF-8 part.
  return typeof c === 'string' ? Buffer.from(c, 'utf8') : c;
}

if (import.meta.main) {
  const { values } = parseArgs({
    options: {
      count: { type: 'string', default: '20000' },
      small: { type: 'boolean', default: false },
      out: { type: 'string' },
      seed: { type: 'string', default: '1' },
    },
  });
  const count = Number(values.count);
  const out = values.out ?? `bench/out/${defaultName(count, values.small)}`;
  console.log(
    JSON.stringify({
      bench: 'generate-mailbox',
      ...generateMailbox({ count, out, seed: Number(values.seed), small: values.small }),
    }),
  );
}

/** `mailbox-20k.mbox`, or `mailbox-small-20k.mbox` for the everyday corpus. */
export function defaultName(count: number, small = false): string {
  const size = count % 1000 === 0 ? `${count / 1000}k` : String(count);
  return `mailbox-${small ? 'small-' : ''}${size}.mbox`;
}
