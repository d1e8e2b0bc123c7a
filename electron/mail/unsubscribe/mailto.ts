// A `mailto:` URI (RFC 6068) read into the message an unsubscribe by email sends. Pure.
//
// SECURITY: the URI comes from untrusted mail. Only the recipients (path and `to=`), `subject` and `body` are
// read; `cc`, `bcc` and any other header a URI may name are ignored, so the message goes only to the addresses
// the confirmation names. Each part is bounded, and a subject keeps no line break (no header of its own making).
const maxRecipients = 3;
const maxAddressChars = 254;
const maxSubjectChars = 200;
const maxBodyChars = 2000;
// One plain address: no display name, no group, no comment, nothing that could be a second one.
const address = /^[^\s@<>()[\]\\,;:"]+@[^\s@<>()[\]\\,;:"]+\.[^\s@<>()[\]\\,;:"]+$/;

export type MailtoMessage = { to: string[]; subject: string; body: string };

/** RFC 6068 §2: percent-decoding only ('+' is a plus, not a space); null for a malformed escape. */
function decoded(part: string): string | null {
  try {
    return decodeURIComponent(part);
  } catch {
    return null;
  }
}

/** The message a mailto URI asks for; null when it names no usable address. */
export function readMailto(uri: string): MailtoMessage | null {
  if (!/^mailto:/i.test(uri)) return null;
  const rest = uri.slice('mailto:'.length);
  const q = rest.indexOf('?');
  const path = q < 0 ? rest : rest.slice(0, q);
  const query = q < 0 ? '' : rest.slice(q + 1);
  const to: string[] = [];
  let subject: string | null = null;
  let body: string | null = null;
  const add = (list: string) => {
    for (const raw of list.split(',')) {
      const a = decoded(raw)?.trim() ?? '';
      if (
        a !== '' &&
        a.length <= maxAddressChars &&
        address.test(a) &&
        !to.includes(a) &&
        to.length < maxRecipients
      )
        to.push(a);
    }
  };
  add(path);
  for (const field of query.split('&')) {
    const eq = field.indexOf('=');
    if (eq <= 0) continue;
    const name = decoded(field.slice(0, eq))?.toLowerCase();
    const value = decoded(field.slice(eq + 1));
    if (value === null) continue;
    if (name === 'to') add(field.slice(eq + 1));
    else if (name === 'subject') subject ??= value;
    else if (name === 'body') body ??= value;
  }
  if (to.length === 0) return null;
  return {
    to,
    subject:
      (subject ?? 'unsubscribe')
        .replace(/[\r\n]+/g, ' ')
        .trim()
        .slice(0, maxSubjectChars) || 'unsubscribe',
    body: (body ?? '').replace(/\r\n?/g, '\n').slice(0, maxBodyChars),
  };
}
