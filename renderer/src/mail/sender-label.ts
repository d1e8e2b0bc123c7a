// What a list shows for a message's sender, as Gmail and Thunderbird do: the name when the From has one
// ("Grace Wright <grace@initech.example>" → "Grace Wright"), else the address. The whole From stays on hover.
// Stored From texts are formatted by the main process (store.ts `formatAddress`): `name <address>`, or one of them.
export function senderLabel(from: string): string {
  const named = /^\s*(.*?)\s*<([^<>]*)>\s*$/.exec(from);
  if (!named) return from.trim();
  const name = (named[1] ?? '').replace(/^"(.*)"$/, '$1').trim();
  return name !== '' ? name : (named[2] ?? '').trim();
}
