// Who writes the synthetic mail: every first × last name of each language, with an address they could
// have, the time zones they write from, and the mailbox owner.
import type { Person } from './compose.ts';
import { domains, englishNames, type Lang, languages } from './words.ts';

export const zone: Record<Lang, number[]> = {
  en: [-300, -240, 0, 60],
  de: [60, 120],
  fr: [60, 120],
  pl: [60, 120],
  ru: [180],
  ja: [540],
  zh: [480],
  zhTW: [480],
  ko: [540],
};

export const me: Person = {
  name: 'Alex Reader',
  first: 'Alex',
  address: 'alex.reader@home.example',
  lang: 'en',
};

function fold(s: string): string {
  return s
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[łŁ]/g, 'l')
    .toLowerCase();
}

export function people(): Record<Lang, Person[]> {
  const out = {} as Record<Lang, Person[]>;
  const all: [Lang, { first: string[]; last: string[] }][] = [
    ['en', englishNames],
    ...(Object.entries(languages) as [Lang, { first: string[]; last: string[] }][]),
  ];
  for (const [lang, names] of all) {
    const list: Person[] = [];
    names.first.forEach((first, i) => {
      names.last.forEach((last, j) => {
        const cjk = lang === 'ja' || lang === 'zh' || lang === 'zhTW' || lang === 'ko';
        const name = cjk ? `${last}${lang === 'ko' ? '' : ' '}${first}` : `${first} ${last}`;
        const local = /^[a-z]+$/.test(fold(first) + fold(last))
          ? `${fold(first)}.${fold(last)}`
          : `${lang.toLowerCase()}.${i}.${j}`;
        const domainList = domains[lang];
        list.push({ name, first, address: `${local}@${domainList[(i + j) % domainList.length]}`, lang });
      });
    });
    out[lang] = list;
  }
  return out;
}
