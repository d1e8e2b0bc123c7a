// Whether a person offered for completion still fits what is typed: the text starts a word of their name or
// address, ignoring case and accents — the rule mail:contacts answers by (electron/mail/store/contacts.ts). The
// composer keeps only the offers that still fit while the answer for the newest keystroke is on its way, so Tab
// or Enter never takes a person found for an earlier, shorter prefix (`e` offering jordan.ellis@… while
// `erin@example.org` is typed). Pure; tested in completion-match.test.ts.
import type { Address } from '../../../shared/contract/index.ts';

const fold = (s: string) =>
  s
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase();

export function stillFits(person: Address, typed: string): boolean {
  const prefix = fold(typed.trim());
  if (prefix === '') return false;
  const name = fold(person.name);
  const address = fold(person.address);
  if (name.startsWith(prefix) || address.startsWith(prefix)) return true;
  // A word start: after anything that is not a letter or digit (a space, a dot, an @, a hyphen).
  return [name, address].some((s) => {
    for (let i = s.indexOf(prefix, 1); i !== -1; i = s.indexOf(prefix, i + 1)) {
      if (!/[\p{L}\p{N}]/u.test(s[i - 1] ?? '')) return true;
    }
    return false;
  });
}
