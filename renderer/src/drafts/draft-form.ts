// The draft being edited, as the form holds it: To and Cc are the comma-separated text the user types, read
// into addresses as they type. The check here is a simple one, to say early which entry looks wrong; Skimmer
// checks again on Save (the contract's email rule) and its sentence is what counts. Pure; tested in
// draft-form.test.ts.
import type { DraftView } from '../../../shared/contract/index.ts';

export type DraftForm = { to: string; cc: string; subject: string; body: string };

export type Addresses = { addresses: string[]; invalid: string[] };

// One @, something on each side, a dot in the domain, and no spaces or address punctuation: enough to catch
// "carol at example.org" or a missing comma ("a@x.org b@y.org"), not a full RFC 5322 parser.
const looksLikeEmail = /^[^\s@,;<>()"]+@[^\s@,;<>()".]+(\.[^\s@,;<>()".]+)+$/;

export function readAddresses(text: string): Addresses {
  const entries = text
    .split(/[,;]/)
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  return {
    addresses: entries,
    invalid: entries.filter((entry) => !looksLikeEmail.test(entry)),
  };
}

export function formOf(draft: DraftView): DraftForm {
  return { to: draft.to.join(', '), cc: draft.cc.join(', '), subject: draft.subject, body: draft.body };
}

// Compared as Skimmer would store them, so retyping "a@x.org,b@y.org" as "a@x.org, b@y.org" is no edit.
export function isEdited(form: DraftForm, draft: DraftView): boolean {
  const same = (a: readonly string[], b: readonly string[]) =>
    a.length === b.length && a.every((value, i) => value === b[i]);
  return (
    !same(readAddresses(form.to).addresses, draft.to) ||
    !same(readAddresses(form.cc).addresses, draft.cc) ||
    form.subject !== draft.subject ||
    form.body !== draft.body
  );
}

/** What the form says about an address field, or null when every entry looks like an address. */
export function addressProblem(text: string): string | null {
  const { invalid } = readAddresses(text);
  if (invalid.length === 0) return null;
  const list = invalid.map((entry) => `“${entry}”`).join(', ');
  return invalid.length === 1
    ? `${list} is not an email address. Separate addresses with commas.`
    : `${list} are not email addresses. Separate addresses with commas.`;
}

export type SaveRequest = { id: number; to: string[]; cc: string[]; subject: string; body: string };

export function saveRequest(id: number, form: DraftForm): SaveRequest {
  return {
    id,
    to: readAddresses(form.to).addresses,
    cc: readAddresses(form.cc).addresses,
    subject: form.subject,
    body: form.body,
  };
}
