// Which links in mail Skimmer offers to open, and what the confirmation warns about (DESIGN §12: links open in
// the system browser only after the user has seen the real URL). Pure; tested in link-policy.test.ts.
import { shownHostMismatch } from '../../../shared/link-host.ts';
import { cleanUrl } from './resource-url.ts';

export type LinkVerdict =
  | { openable: true; url: string; host: string; warnings: string[] }
  | { openable: false; url: string; reason: string };

const openableSchemes = new Set(['http:', 'https:', 'mailto:']);

export function classifyLink(rawHref: string, shownText: string): LinkVerdict {
  const cleaned = cleanUrl(rawHref);
  if (cleaned === '') return { openable: false, url: '', reason: 'This link has no address.' };
  let parsed: URL;
  try {
    parsed = new URL(cleaned);
  } catch {
    return {
      openable: false,
      url: cleaned,
      reason: 'This link has no full address (it points inside the email), so Skimmer cannot open it.',
    };
  }
  if (!openableSchemes.has(parsed.protocol)) {
    return {
      openable: false,
      url: cleaned,
      reason: `Skimmer opens only web (http, https) and mailto links; this one is “${parsed.protocol}”.`,
    };
  }
  return {
    openable: true,
    url: parsed.href,
    host: parsed.hostname,
    warnings: linkWarnings(parsed, shownText),
  };
}

function linkWarnings(url: URL, shownText: string): string[] {
  const warnings: string[] = [];
  if (url.protocol === 'mailto:') return warnings;
  if (url.username || url.password) {
    warnings.push(`The address has a name before “@”; the site it really opens is ${url.hostname}.`);
  }
  // The URL parser turns international names into punycode, which is what the user should compare.
  if (url.hostname.split('.').some((label) => label.startsWith('xn--'))) {
    warnings.push('The site name uses international letters that can imitate other sites.');
  }
  const shownHost = shownHostMismatch(shownText, url.hostname);
  if (shownHost) {
    warnings.push(`The link text shows ${shownHost}, but the link opens ${url.hostname}.`);
  }
  return warnings;
}
