// Who a reply goes to (DESIGN §11, "Reply, reply all, forward").
//
// - Reply: the Reply-To when the message has one, else its sender.
// - Reply all: that, then every To of the message; its Cc stay Cc. Your own addresses are left out (compared
//   as `addressKey` compares them: trimmed, lower-cased), each address is there once (the first place it was
//   named, with a name if any of its places had one), and groups are their members.
// - A message you sent (its From is yours) is answered as Gmail and Thunderbird do: Reply goes to the people
//   you wrote to (its To; its Cc when it had no other To), Reply all to its To and Cc, not back to you; only a
//   message to yourself alone comes back to you.
import type { Address } from '../contract/index.ts';
import { addressKey } from '../mail-address.ts';
import type { AddressEntry, Original } from './composition.ts';

/** The mailboxes of a list of entries, groups flattened into their members, without those with no address. */
export function flattenAddresses(entries: readonly AddressEntry[]): Address[] {
  return entries.flatMap((e): Address[] =>
    'group' in e
      ? flattenAddresses(e.group)
      : usable(e)
        ? [{ name: e.name.trim(), address: e.address.trim() }]
        : [],
  );
}

// An address a reply can go to: a local part and a domain, no spaces. Anything stranger is left for the user to
// type again rather than guessed at; draft:save checks what is kept.
const usable = (a: Address) => /^[^\s@]+@[^\s@]+$/.test(a.address.trim());

/** Each address once, in the order first named; a name from a later place fills an empty one. */
function distinct(list: readonly Address[], already: ReadonlySet<string> = new Set()): Address[] {
  const out = new Map<string, Address>();
  for (const a of list) {
    const key = addressKey(a.address);
    if (already.has(key)) continue;
    const seen = out.get(key);
    if (!seen) out.set(key, a);
    else if (seen.name === '' && a.name !== '') out.set(key, { ...seen, name: a.name });
  }
  return [...out.values()];
}

export type Recipients = { to: Address[]; cc: Address[] };

/** The To and Cc of a reply (`all`: reply all) to `original`, for a user with these addresses. */
export function replyRecipients(
  original: Original,
  yourAddresses: readonly string[],
  all: boolean,
): Recipients {
  const yours = new Set(yourAddresses.map(addressKey));
  const notYours = (list: readonly Address[]) => list.filter((a) => !yours.has(addressKey(a.address)));
  const from = flattenAddresses([original.from]);
  const to = flattenAddresses(original.to);
  const cc = flattenAddresses(original.cc);

  const sentByYou = from.some((a) => yours.has(addressKey(a.address)));
  const replyTo = flattenAddresses(original.replyTo ?? []);
  const target = sentByYou ? to : replyTo.length > 0 ? replyTo : from;
  if (!all && !sentByYou) return { to: distinct(target), cc: [] };

  const others = distinct(notYours(sentByYou ? to : [...target, ...to]));
  const copies = distinct(notYours(cc), keys(others));
  // Only Cc left: they become the To. Nobody but you: back to you (a note to self, a Reply-To naming you).
  if (others.length > 0) return { to: others, cc: all ? copies : [] };
  if (copies.length > 0) return { to: copies, cc: [] };
  return { to: distinct(sentByYou ? from : target), cc: [] };
}

const keys = (list: readonly Address[]) => new Set(list.map((a) => addressKey(a.address)));
