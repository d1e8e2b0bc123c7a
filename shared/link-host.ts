// The one rule for a link whose text shows another site than the one it opens (DESIGN §8 and §12): the link
// dialog warns with it before a link opens (renderer/src/mail/link-policy.ts), and the reader's banner names
// such links when a message is stored (electron/mail/warnings/). Pure; tested in link-host.test.ts.

/** The host a link's text claims, when the text reads as an address ("www.bank.com", "https://bank.com/x"). */
export function hostInText(text: string): string | null {
  const match = /^\s*(?:https?:\/\/)?((?:[a-z0-9-]+\.)+[a-z]{2,})(?:[/:?#]\S*)?\s*$/i.exec(text);
  return match?.[1]?.toLowerCase() ?? null;
}

/** Whether two hosts are the same site for a reader: equal but for a leading `www.`. */
function sameSite(a: string, b: string): boolean {
  const bare = (host: string) => host.toLowerCase().replace(/^www\./, '');
  return bare(a) === bare(b);
}

/**
 * The host the text shows when it is not the host the link opens (`opens` is the parsed URL's hostname, in
 * punycode as the URL parser gives it); null when the text shows no address or the same site.
 */
export function shownHostMismatch(shownText: string, opens: string): string | null {
  const shown = hostInText(shownText);
  return shown && !sameSite(shown, opens) ? shown : null;
}
