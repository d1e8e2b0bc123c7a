// The people in your mailbox, for the composer's completion of To, Cc and Bcc (`mail:contacts`, DESIGN §11,
// "Contacts"). `contacts` (migration 0029) is counted by store.ts per batch of stored messages (0032) and by a
// delete trigger on `messages`: everyone named in a From, To or
// Cc, with how many messages name them, so your sent mail counts the people you write to. A query folds case
// and accents (NFD, marks dropped: "mul" finds "Müller") and matches the prefix at the start of a word of the
// name or the address ("ram" finds "Priya Raman", "exa" finds "ana@example.com"), most often named first.
// SQLite cannot fold accents, so the table is held here, sorted and folded, and read again only when a batch or
// a delete has moved `contacts_version`: reading and folding 11,000 people on every keystroke took a median
// 38 ms, the folded copy answers in about a millisecond (bench/contacts.ts).
import type { Address } from '../../../shared/contract/index.ts';
import type { Db } from '../../db/open.ts';

type Row = { address: string; name: string; count: number };
type Person = { address: string; name: string; folded: string };

/** Lower case without accents, as the match compares. */
export function fold(s: string): string {
  return s
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase();
}

/** Pure: does some word of `text` (folded) start with `prefix` (folded)? A word starts after a non-letter. */
export function startsAWord(text: string, prefix: string): boolean {
  for (let i = text.indexOf(prefix); i >= 0; i = text.indexOf(prefix, i + 1)) {
    if (i === 0 || !/[\p{L}\p{N}]/u.test(text.charAt(i - 1))) return true;
  }
  return false;
}

export function prepareContacts(db: Db) {
  const everyone = db.prepare<[], Row>(
    'SELECT address, name, count FROM contacts ORDER BY count DESC, address',
  );
  const version = db.prepare<[], number>('SELECT version FROM contacts_version').pluck();
  let held: { version: number; people: Person[] } | null = null;

  const people = (): Person[] => {
    const now = version.get() as number;
    if (held?.version !== now) {
      // The name and the address in one folded text, so one search finds a word start in either.
      const list = everyone
        .all()
        .map((r) => ({ address: r.address, name: r.name, folded: `${fold(r.name)}\n${r.address}` }));
      held = { version: now, people: list };
    }
    return held.people;
  };

  return {
    /** Up to `limit` people whose name or address has a word starting with `prefix`, most often named first. */
    find(prefix: string, limit: number): Address[] {
      const p = fold(prefix.trim());
      if (p === '') return [];
      const out: Address[] = [];
      for (const person of people()) {
        if (!startsAWord(person.folded, p)) continue;
        out.push({ name: person.name, address: person.address });
        if (out.length >= limit) break;
      }
      return out;
    },
  };
}
