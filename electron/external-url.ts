// SECURITY: the one gate for opening a link outside Skimmer (DESIGN §12). Only web and mail links; the
// URL returned is the parsed one (punycode host, no credentials), which is what the user is shown and
// what is opened, so a link cannot look like one address and go to another.
export type ExternalUrlCheck = { ok: true; url: string } | { ok: false; reason: string };

const allowed = new Set(['https:', 'http:', 'mailto:']);

export function checkExternalUrl(raw: string): ExternalUrlCheck {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return { ok: false, reason: 'This link is not a valid address.' };
  }
  if (!allowed.has(url.protocol)) {
    return { ok: false, reason: 'Skimmer only opens web (http, https) and mailto links.' };
  }
  if (url.protocol !== 'mailto:') {
    // `https://bank.example@evil.example` reads like the bank; refuse links that carry credentials.
    if (url.username || url.password) return { ok: false, reason: 'This link hides its real address.' };
    if (!url.hostname) return { ok: false, reason: 'This link has no host.' };
  }
  return { ok: true, url: url.href };
}
