// Text parts and header values in a message's charset, with the transfer encodings clients choose for
// them; `counts` tallies what was chosen for the generator's summary.
import type { Person } from './compose.ts';
import {
  base64Lines,
  type Charset,
  charsetLabel,
  encodedWords,
  encodeExactly,
  isAscii,
  quotedPrintable,
} from './mime.ts';
import type { Random } from './random.ts';

export type PartCounts = {
  quotedPrintableParts: number;
  base64BodyParts: number;
  encodedWordSubjects: { B: number; Q: number };
};

export type Part = { headers: string[]; body: Buffer | string; escape: boolean };

export function textPart(
  r: Random,
  type: 'plain' | 'html',
  content: string,
  charset: Charset,
  counts: PartCounts,
): Part {
  const bytes = encodeExactly(content, charset);
  const ascii = !bytes.some((b) => b > 0x7e);
  let cte: string;
  if (charset === 'iso-2022-jp') cte = r.chance(0.8) ? '7bit' : 'base64';
  else if (type === 'html') cte = r.chance(0.7) ? 'quoted-printable' : 'base64';
  else if (ascii)
    cte = r.weighted([
      ['7bit', 60],
      ['quoted-printable', 30],
      ['base64', 10],
    ]);
  else if (['shift_jis', 'gb2312', 'gb18030', 'big5', 'euc-kr'].includes(charset))
    cte = r.chance(0.6) ? 'base64' : '8bit';
  else
    cte = r.weighted([
      ['quoted-printable', 55],
      ['base64', 25],
      ['8bit', 20],
    ]);
  if (cte === 'quoted-printable') counts.quotedPrintableParts++;
  if (cte === 'base64') counts.base64BodyParts++;
  const body =
    cte === 'quoted-printable'
      ? `${quotedPrintable(bytes)}\n`
      : cte === 'base64'
        ? `${base64Lines(bytes)}\n`
        : bytes;
  return {
    headers: [
      `Content-Type: text/${type}; charset=${charset === 'utf-8' && r.chance(0.3) ? 'utf-8' : charsetLabel[charset]}`,
      `Content-Transfer-Encoding: ${cte}`,
    ],
    body,
    escape: cte !== 'base64',
  };
}

export function headerText(r: Random, text: string, charset: Charset, counts?: PartCounts): string {
  if (isAscii(text)) return text;
  let cs = charset;
  try {
    encodeExactly(text, cs);
  } catch {
    cs = 'utf-8';
  }
  const multibyte = !['utf-8', 'iso-8859-1', 'windows-1252', 'iso-8859-2', 'koi8-r'].includes(cs);
  const mode = multibyte ? 'B' : r.chance(0.55) ? 'B' : 'Q';
  if (counts) counts.encodedWordSubjects[mode]++;
  return encodedWords(text, cs, mode);
}

export function address(r: Random, p: Person, charset: Charset): string {
  if (isAscii(p.name)) return `${p.name} <${p.address}>`;
  return `${headerText(r, p.name, charset)} <${p.address}>`;
}
