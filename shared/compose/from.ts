// Which of your addresses a reply or forward is sent from (DESIGN §11, "Reply, reply all, forward"): the one
// the original was sent to, so an answer to mail for your work address comes from your work address; the one
// it was sent from when you wrote it; else the default of the account it is in.
import { addressKey } from '../mail-address.ts';
import type { Identity, Original, You } from './composition.ts';
import { flattenAddresses } from './recipients.ts';

/** The identity to send from; null when you have no address to offer (the sending account's own is used). */
export function chooseFrom(original: Pick<Original, 'from' | 'to' | 'cc'>, you: You): Identity | null {
  const byKey = new Map(you.identities.map((i) => [addressKey(i.address), i]));
  const named = flattenAddresses([original.from, ...original.to, ...original.cc]);
  for (const a of named) {
    const mine = byKey.get(addressKey(a.address));
    if (mine) return mine;
  }
  if (you.accountAddress === null) return null;
  return (
    byKey.get(addressKey(you.accountAddress)) ?? { address: you.accountAddress, name: null, signature: null }
  );
}
