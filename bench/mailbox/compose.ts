// What one synthetic message says: subject, plain-text body (greeting, paragraphs, signature, quoted
// parent), a table-layout HTML rendering of the same text, and attachments. Encoding happens elsewhere.
import type { Charset } from './mime.ts';
import type { Random } from './random.ts';
import {
  cities,
  days,
  englishPhrases,
  functionWords,
  generalWords,
  type Lang,
  languages,
  months,
  topics,
} from './words.ts';

export type Person = { name: string; first: string; address: string; lang: Lang };
export type Locale = { lang: Lang; charset: Charset };

function fillTemplate(r: Random, template: string, topic: string, year: number): string {
  return template.replace(/\{(\w+)\}/g, (_, key: string) => {
    switch (key) {
      case 'n':
        return String(r.between(1000, 999999));
      case 'month':
        return r.pick(months);
      case 'quarter':
        return `Q${r.between(1, 4)} ${year}`;
      case 'day':
        return r.pick(days);
      case 'hour':
        return `${r.between(8, 17)}:${r.pick(['00', '15', '30', '45'])}`;
      case 'w':
        return r.pick(topics[topic]?.words ?? generalWords);
      case 'name':
        return r.pick(['Anna', 'James', 'Sophie', 'Daniel', 'Grace']);
      case 'code':
        return r.hex(6).toUpperCase();
      case 'city':
        return r.pick(cities);
      case 'year':
        return String(year);
      case 'week':
        return String(r.between(1, 52));
      case 'pct':
        return String(r.pick([10, 15, 20, 25, 30, 40, 50]));
      default:
        return key;
    }
  });
}

export function rootSubject(r: Random, locale: Locale, topic: string, year: number): string {
  if (locale.lang === 'en') {
    const s = fillTemplate(r, r.pick(topics[topic]?.subjects ?? ['Hello']), topic, year);
    // windows-1252 mail is where “smart quotes”, – and € live (bytes 0x80–0x9F, which ISO-8859-1 lacks).
    if (locale.charset === 'windows-1252') {
      return `“${s}” – ${r.pick([`€ ${r.between(100, 9999)},00`, 'final version…', 'don’t miss it', 'we’re almost done'])}`;
    }
    return s;
  }
  const pool = languages[locale.lang];
  return fillTemplate(r, r.pick(pool.subjects).replace('{w}', r.pick(pool.words)), topic, year);
}

function englishSentence(r: Random, topic: string, smart: boolean): string {
  const topicWords = topics[topic]?.words ?? generalWords;
  const n = r.between(6, 16);
  const words: string[] = [];
  for (let i = 0; i < n; i++) {
    const x = r.next();
    words.push(x < 0.4 ? r.pick(functionWords) : x < 0.75 ? r.pick(topicWords) : r.pick(generalWords));
  }
  if (r.chance(0.12)) words.splice(r.int(words.length), 0, r.pick(englishPhrases));
  if (smart) {
    const i = r.int(words.length);
    words[i] = `“${words[i]}”`;
    if (r.chance(0.5)) words.push(r.pick(['– it’s urgent', 'for € 1.250', '…', '– don’t wait']));
  }
  const s = words.join(' ');
  return `${s[0]?.toUpperCase()}${s.slice(1)}${r.pick(['.', '.', '.', '?', '!'])}`;
}

function foreignSentence(r: Random, lang: Exclude<Lang, 'en'>): string {
  const pool = languages[lang];
  if (r.chance(0.15)) return r.pick(pool.extra);
  const n = r.between(4, 10);
  const words = Array.from({ length: n }, () => r.pick(pool.words));
  if (pool.cjk) return `${words.join(r.chance(0.3) ? '、' : '')}。`;
  const s = words.join(' ');
  return `${s[0]?.toUpperCase()}${s.slice(1)}.`;
}

export function paragraphs(r: Random, locale: Locale, topic: string, most = 5): string[] {
  const count = r.between(1, most);
  const out: string[] = [];
  for (let p = 0; p < count; p++) {
    const n = r.between(2, 5);
    const sentences: string[] = [];
    for (let i = 0; i < n; i++) {
      sentences.push(
        locale.lang === 'en'
          ? englishSentence(r, topic, locale.charset === 'windows-1252' && r.chance(0.3))
          : foreignSentence(r, locale.lang),
      );
    }
    const cjk = locale.lang !== 'en' && languages[locale.lang].cjk;
    out.push(sentences.join(cjk ? '' : ' '));
  }
  if (locale.lang === 'en' && r.chance(0.2)) {
    out.push(
      `Details: https://portal.${r.pick(['acme', 'globex', 'initech'])}.example/doc/${r.between(1000, 99999)}`,
    );
  }
  return out;
}

export function greeting(r: Random, locale: Locale, to: Person): string {
  if (locale.lang === 'en') {
    if (locale.charset === 'windows-1252') return `Hi ${to.first} – here’s the “update” you asked for…`;
    return `${r.pick(['Hi', 'Hello', 'Dear', 'Hey'])} ${to.first},`;
  }
  return r.pick(languages[locale.lang].greetings).replace('{name}', to.first);
}

function closing(r: Random, locale: Locale): string {
  if (locale.lang === 'en') return r.pick(['Best regards,', 'Thanks,', 'Cheers,', 'Kind regards,', 'Best,']);
  return r.pick(languages[locale.lang].closings);
}

function wrap(text: string, cjk: boolean): string[] {
  if (cjk) {
    const chars = Array.from(text);
    const lines: string[] = [];
    for (let i = 0; i < chars.length; i += 36) lines.push(chars.slice(i, i + 36).join(''));
    return lines;
  }
  const lines: string[] = [];
  let line = '';
  for (const w of text.split(' ')) {
    if (line.length > 0 && line.length + 1 + w.length > 72) {
      lines.push(line);
      line = w;
    } else line = line.length > 0 ? `${line} ${w}` : w;
  }
  if (line.length > 0) lines.push(line);
  return lines;
}

export type TextBody = { text: string; quote: string[] };

// Plain text as a mail client writes it. `quote` keeps the first lines for a later reply to quote.
export function textBody(
  r: Random,
  locale: Locale,
  opening: string,
  paras: string[],
  sender: Person,
  parent: { quote: string[]; from: Person; date: string } | null,
): TextBody {
  const cjk = locale.lang !== 'en' && languages[locale.lang].cjk;
  const own: string[] = [opening, ''];
  for (const p of paras) own.push(...wrap(p, cjk), '');
  // Lines that an mbox writer must escape: "From " at the start of a line, and one already escaped.
  if (r.chance(0.04)) {
    own.push(
      r.pick([
        'From now on, please send the files to the shared folder.',
        `From the desk of ${sender.name}:`,
      ]),
      '',
    );
  }
  if (r.chance(0.005)) {
    own.push('>From the archive: this line was escaped once already.', '');
  }
  own.push(closing(r, locale), sender.first);
  const sig = r.chance(0.6)
    ? [
        '',
        '-- ',
        sender.name,
        `${r.pick(['Account Manager', 'Engineer', 'Director', 'Assistant'])}, ${sender.address.split('@')[1]}`,
        `+${r.between(1, 99)} ${r.between(100, 999)} ${r.between(1000000, 9999999)}`,
      ]
    : [];
  const lines = [...own, ...sig];
  if (parent) {
    const attribution = `On ${parent.date}, ${parent.from.name} <${parent.from.address}> wrote:`;
    const quoted = parent.quote.map((l) => (l.startsWith('>') ? `>${l}` : `> ${l}`));
    if (r.chance(0.75)) lines.push('', attribution, ...quoted);
    else lines.unshift(attribution, ...quoted, '');
  }
  return { text: `${lines.join('\n')}\n`, quote: own.filter((l) => l.length > 0).slice(0, 6) };
}

function escapeHtml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

// Table-layout HTML the way newsletters and Outlook write it: nested presentation tables, inline styles,
// tracked links and a 1×1 tracking pixel.
export function htmlBody(
  r: Random,
  charsetLabel: string,
  heading: string,
  opening: string,
  paras: string[],
  newsletter: boolean,
): string {
  const track = `https://click.${r.pick(['mailer', 'news', 'links'])}.example/r/${r.hex(16)}`;
  const linked = (p: string) =>
    escapeHtml(p).replace(
      /\b([a-z]{6,})\b/,
      (w) => `<a href="${track}?u=${r.hex(8)}" style="color:#1a73e8">${w}</a>`,
    );
  const rows = [opening, ...paras]
    .map(
      (p) =>
        `<tr>\n<td style="padding:0 24px 16px 24px;font-family:Arial,Helvetica,sans-serif;font-size:14px;line-height:20px;color:#333333">${linked(p)}</td>\n</tr>`,
    )
    .join('\n');
  const products = newsletter
    ? `<tr>\n<td style="padding:0 24px"><table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0"><tr>\n${Array.from(
        { length: r.between(2, 4) },
        () =>
          `<td width="33%" align="center" valign="top" style="padding:8px"><a href="${track}?p=${r.hex(6)}"><img src="https://cdn.shop.example/img/${r.hex(10)}.jpg" width="160" height="160" alt="Product" style="display:block;border:0"></a><p style="font-size:13px;margin:8px 0">${escapeHtml(r.pick(generalWords))} &ndash; ${r.between(5, 300)}.99</p></td>`,
      ).join('\n')}\n</tr></table></td>\n</tr>`
    : '';
  return `<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd">
<html xmlns="http://www.w3.org/1999/xhtml">
<head>
<meta http-equiv="Content-Type" content="text/html; charset=${charsetLabel}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<title>${escapeHtml(heading)}</title>
<style type="text/css">
body { margin:0; padding:0; -webkit-text-size-adjust:100%; }
table { border-collapse:collapse; mso-table-lspace:0pt; mso-table-rspace:0pt; }
img { border:0; outline:none; text-decoration:none; }
@media only screen and (max-width:620px) { .container { width:100% !important; } }
</style>
</head>
<body style="margin:0;padding:0;background-color:#f4f4f4">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="background-color:#f4f4f4">
<tr>
<td align="center" style="padding:24px 0">
<table role="presentation" class="container" width="600" cellpadding="0" cellspacing="0" border="0" style="background-color:#ffffff;border-radius:4px">
<tr>
<td style="padding:24px;font-family:Arial,Helvetica,sans-serif;font-size:20px;font-weight:bold;color:#111111">${escapeHtml(heading)}</td>
</tr>
${rows}
${products}
<tr>
<td style="padding:8px 24px 24px 24px"><a href="${track}?cta=1" style="background-color:#1a73e8;color:#ffffff;padding:10px 18px;border-radius:4px;text-decoration:none;font-family:Arial,Helvetica,sans-serif">${newsletter ? 'Shop now' : 'Open in browser'}</a></td>
</tr>
<tr>
<td style="padding:16px 24px;font-family:Arial,Helvetica,sans-serif;font-size:11px;color:#999999">You receive this email because you signed up. <a href="https://lists.example/unsubscribe/${r.hex(12)}" style="color:#999999">Unsubscribe</a> &middot; 1 Example Street, Springfield</td>
</tr>
</table>
</td>
</tr>
</table>
<img src="https://t.${r.pick(['mailer', 'news', 'open'])}.example/o/${r.hex(24)}.gif" width="1" height="1" alt="" style="display:none;width:1px;height:1px;border:0">
</body>
</html>
`;
}

export type Attachment = { filename: string; contentType: string; data: Buffer; inline: boolean };

const attachmentTypes = [
  ['pdf', 'application/pdf', Buffer.from('%PDF-1.4\n%\xe2\xe3\xcf\xd3\n', 'latin1'), 30],
  ['png', 'image/png', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), 15],
  ['jpg', 'image/jpeg', Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46]), 12],
  ['zip', 'application/zip', Buffer.from([0x50, 0x4b, 0x03, 0x04]), 8],
  [
    'docx',
    'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    Buffer.from([0x50, 0x4b, 0x03, 0x04]),
    12,
  ],
  ['csv', 'text/csv', null, 12],
  ['ics', 'text/calendar', null, 11],
] as const;

// Log-normal sizes with a median near 40 KB, capped at 600 KB (feasibility §C); `small`: median 12 KB,
// capped at 100 KB. Binary content is a slice of a random pool behind the format's magic bytes: parsers only
// base64-decode it, never look inside.
export function attachment(r: Random, pool: Buffer, topic: string, year: number, small = false): Attachment {
  const [ext, contentType, magic] = r.weighted(attachmentTypes.map((t) => [t, t[3]] as const));
  const [median, cap] = small ? [12 * 1024, 100 * 1024] : [40 * 1024, 600 * 1024];
  const size = Math.round(Math.min(cap, Math.max(1024, r.logNormal(median, 1.1))));
  let data: Buffer;
  if (ext === 'csv') data = csv(r, Math.min(size, 200 * 1024), topic);
  else if (ext === 'ics') data = ics(r, year);
  else {
    const off = r.int(pool.length - size);
    data = Buffer.concat([magic as Buffer, pool.subarray(off, off + size)]);
  }
  const base = r.pick(
    ext === 'png' || ext === 'jpg'
      ? [`IMG_${r.between(1000, 9999)}`, `scan_${r.between(1, 400)}`, 'screenshot']
      : ext === 'ics'
        ? ['invite', 'meeting']
        : [
            `Invoice-${year}-${r.between(1, 9999)}`,
            `report-${r.pick(months).toLowerCase()}`,
            `export-${r.between(1, 999)}`,
            'Rechnung Müller',
            'Umowa_Łódź',
            'Отчёт',
          ],
  );
  return {
    filename: `${base}.${ext}`,
    contentType,
    data,
    inline: (ext === 'png' || ext === 'jpg') && r.chance(0.2),
  };
}

function csv(r: Random, size: number, topic: string): Buffer {
  const rows = ['date,description,quantity,amount,currency'];
  let n = rows[0]?.length ?? 0;
  const words = topics[topic]?.words ?? generalWords;
  while (n < size) {
    const row = `2024-${String(r.between(1, 12)).padStart(2, '0')}-${String(r.between(1, 28)).padStart(2, '0')},${r.pick(words)} ${r.pick(generalWords)},${r.between(1, 50)},${r.between(1, 99999) / 100},EUR`;
    rows.push(row);
    n += row.length + 1;
  }
  return Buffer.from(`${rows.join('\r\n')}\r\n`);
}

function ics(r: Random, year: number): Buffer {
  const d = `${year}${String(r.between(1, 12)).padStart(2, '0')}${String(r.between(1, 28)).padStart(2, '0')}`;
  return Buffer.from(
    [
      'BEGIN:VCALENDAR',
      'PRODID:-//Example Corp//Calendar 1.0//EN',
      'VERSION:2.0',
      'METHOD:REQUEST',
      'BEGIN:VEVENT',
      `UID:${r.hex(32)}@calendar.example`,
      `DTSTAMP:${d}T080000Z`,
      `DTSTART:${d}T${r.between(8, 16)}0000Z`,
      `DTEND:${d}T${r.between(17, 19)}0000Z`,
      `SUMMARY:${r.pick(['Budget meeting', 'Quarterly planning', 'Conference call', 'Project kickoff'])}`,
      `LOCATION:${r.pick(cities)} office, room ${r.between(1, 40)}`,
      `DESCRIPTION:${r.pick(englishPhrases)}`,
      'END:VEVENT',
      'END:VCALENDAR',
      '',
    ].join('\r\n'),
  );
}
