// The message being written, as the composer holds it (DESIGN §12, "The composer"): From, the three address
// fields as chips, Subject and Body. What is saved is what Skimmer can keep: a chip that is not an address
// stays on screen, marked, and is left out of the save until it is fixed, so autosave never fails on a typo;
// Send waits for it. Pure; tested in compose-form.test.ts.
import type { DraftView, Request } from '../../../shared/contract/index.ts';
import { entriesProblem, isAddress } from './address-entry.ts';

export type AddressField = 'to' | 'cc' | 'bcc';
const addressFields: readonly AddressField[] = ['to', 'cc', 'bcc'];

export type ComposeForm = {
  fromAddress: string | null;
  to: string[];
  cc: string[];
  bcc: string[];
  subject: string;
  body: string;
};

export function formOf(draft: DraftView): ComposeForm {
  return {
    fromAddress: draft.fromAddress,
    to: [...draft.to],
    cc: [...draft.cc],
    bcc: [...draft.bcc],
    subject: draft.subject,
    body: draft.body,
  };
}

const sameList = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((value, i) => value === b[i]);

export function sameForm(a: ComposeForm, b: ComposeForm): boolean {
  return (
    a.fromAddress === b.fromAddress &&
    addressFields.every((field) => sameList(a[field], b[field])) &&
    a.subject === b.subject &&
    a.body === b.body
  );
}

/** Whether anything was written: a recipient, a subject, or text other than blank lines. */
export function hasWriting(form: ComposeForm): boolean {
  return (
    addressFields.some((field) => form[field].length > 0) ||
    form.subject.trim() !== '' ||
    form.body.trim() !== ''
  );
}

export function saveRequest(id: number, form: ComposeForm): Request<'draft:save'> {
  return {
    id,
    fromAddress: form.fromAddress,
    to: form.to.filter(isAddress),
    cc: form.cc.filter(isAddress),
    bcc: form.bcc.filter(isAddress),
    subject: form.subject,
    body: form.body,
  };
}

/** Why the form cannot be sent as it stands, or null. Skimmer checks again and has the last word. */
export function sendProblem(form: ComposeForm): string | null {
  for (const field of addressFields) {
    const problem = entriesProblem(form[field]);
    if (problem) return `${problem} Fix it or remove it before sending.`;
  }
  if (addressFields.every((field) => form[field].length === 0))
    return 'Add at least one recipient before sending.';
  return null;
}
