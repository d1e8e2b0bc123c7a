// A part's Content-ID as an HTML body's `cid:` URL names it (RFC 2392, issue 29 §1): the id without its angle
// brackets. Used where the list of attachments is stored (import and sync) and where the reader resolves a
// `cid:` image, so the two always compare the same strings.

/** The id a Content-ID header (or IMAP BODYSTRUCTURE's id) gives, without angle brackets; bounded. */
export function contentIdOf(raw: string | undefined): string {
  return (raw ?? '').trim().replace(/^<|>$/g, '').trim().slice(0, 255);
}

/** The Content-ID a `cid:` URL names (percent-decoded, RFC 2392), compared case-insensitively; null for any other. */
export function cidOf(url: string): string | null {
  const m = /^cid:(.+)$/i.exec(url);
  if (!m) return null;
  try {
    return decodeURIComponent(m[1] as string)
      .trim()
      .replace(/^<|>$/g, '')
      .toLowerCase();
  } catch {
    return null;
  }
}
