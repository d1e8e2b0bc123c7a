// What the user types or pastes into To, Cc or Bcc, read as address chips (DESIGN §12, "The composer"). A
// chip is kept even when it is not an address, so the field can show it as wrong instead of dropping it;
// Skimmer's own rule (shared/mail-address.ts, the one the message is composed with) decides which are. Pure;
// tested in address-entry.test.ts.
import { addressKey, parseAddressList, parseMailbox } from '../../../shared/mail-address.ts';

/**
 * The entries of a typed or pasted text: separated by commas, semicolons or line ends; `Name <a@x.example>`
 * gives its address, and a group's name (`team: a@x.example, b@x.example;`) is dropped, its members kept.
 */
export function readEntries(text: string): string[] {
  return text
    .split(/[,;\n\r]/)
    .map((piece) => piece.replace(/^[^@<"]*:\s*/, '').trim())
    .filter((piece) => piece !== '')
    .map((piece) => (piece.includes('<') ? (parseAddressList(piece)[0]?.address ?? piece) : piece));
}

/** Whether a chip is one address Skimmer can send to. */
export const isAddress = (entry: string): boolean => parseMailbox(entry) !== null;

/** The chips with the new entries added at the end, each address once (compared as Skimmer compares them). */
export function addEntries(chips: readonly string[], entries: readonly string[]): string[] {
  const seen = new Set(chips.map(addressKey));
  const out = [...chips];
  for (const entry of entries) {
    const key = addressKey(entry);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(entry);
  }
  return out;
}

/** The sentence under a field with chips that are not addresses, or null when every chip is one. */
export function entriesProblem(chips: readonly string[]): string | null {
  const wrong = chips.filter((chip) => !isAddress(chip));
  if (wrong.length === 0) return null;
  const list = wrong.map((chip) => `“${chip}”`).join(', ');
  return wrong.length === 1 ? `${list} is not an email address.` : `${list} are not email addresses.`;
}
