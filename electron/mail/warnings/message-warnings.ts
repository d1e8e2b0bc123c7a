// The warnings of one message (DESIGN §11, "Warnings"), from its headers, its bodies and the domains you know.
// Pure: the store computes them as a message is stored (warning-store.ts), in the order a reader weighs them.

import type { Address, MessageWarning } from '../../../shared/contract/index.ts';
import { shownHostMismatch } from '../../../shared/link-host.ts';
import { stripHiddenText } from '../../text/hidden-characters.ts';
import { hiddenHtmlText } from '../../text/hidden-html.ts';
import { decodeEntities } from '../../text/html-entities.ts';
import { injectionQuote, suspectInjection } from '../../text/injection.ts';
import { authFailures } from './auth-results.ts';
import { domainOf, type KnownDomains, lookalikeText, registrable } from './lookalike.ts';
import type { TrustHeaders } from './trust-headers.ts';

export type WarningInput = {
  from: Address;
  text: string;
  html: string | null;
  /** Null for mail stored before the warnings existed: its headers were not kept, so those checks are skipped. */
  trust: TrustHeaders | null;
  /** The warnings of the bodies alone, when they were found already (parse.ts, on a parse thread). */
  contentWarnings?: readonly MessageWarning[];
};

export function messageWarnings(m: WarningInput, known: KnownDomains): MessageWarning[] {
  const warnings: MessageWarning[] = [];
  const add = (kind: MessageWarning['kind'], text: string | null) => {
    if (text) warnings.push({ kind, text });
  };
  add('lookalike', lookalikeText(m.from, known));
  if (m.trust) {
    add('authentication', authenticationText(m.trust.authenticationResults, domainOf(m.from.address)));
    add('reply-to', replyToText(m.from.address, m.trust.replyTo));
  }
  warnings.push(...(m.contentWarnings ?? contentWarnings(m.text, m.html)));
  return warnings;
}

/**
 * The warnings that read only the message's bodies, not your mailbox: found where the message is parsed, off
 * the thread that stores it (they were 40 % of an import's storing time, issue 18).
 */
export function contentWarnings(text: string, html: string | null): MessageWarning[] {
  const warnings: MessageWarning[] = [];
  const hidden = hiddenTextLine(text, html);
  if (hidden) warnings.push({ kind: 'hidden-text', text: hidden });
  const link = linkMismatchText(html);
  if (link) warnings.push({ kind: 'link-mismatch', text: link });
  return warnings;
}

const methodNames = { spf: 'SPF', dkim: 'DKIM', dmarc: 'DMARC' } as const;

function authenticationText(fields: readonly string[], fromDomain: string | null): string | null {
  const failures = authFailures(fields, fromDomain);
  if (failures.length === 0) return null;
  const checks = failures.map((f) => `${methodNames[f.method]}${f.domain ? ` (${f.domain})` : ''}`);
  const list = checks.length > 1 ? `${checks.slice(0, -1).join(', ')} and ${checks.at(-1)}` : checks[0];
  return `Your mail server says this message failed ${list}: it may not be from who it says.`;
}

function replyToText(from: string, replyTo: readonly string[]): string | null {
  const fromDomain = domainOf(from);
  for (const address of replyTo) {
    const domain = domainOf(address);
    if (domain && fromDomain && registrable(domain) !== registrable(fromDomain)) {
      return `Replies go to ${address}, on another domain than the sender's (${fromDomain}).`;
    }
  }
  return null;
}

const quoteLimit = 200;
const isAimedAtAssistant = (text: string) =>
  suspectInjection(text).reasons.some((reason) => reason !== 'hidden-characters');

/**
 * The hidden line aimed at an assistant, as the text the person is shown: text the HTML hides (the same
 * scanner the model's copy is cleaned with, electron/ai/safety/untrusted.ts) or a line written with invisible
 * characters, when it reads as instructions to an AI. Hidden text that is not (a newsletter's preheader) is
 * no warning.
 */
function hiddenTextLine(text: string, html: string | null): string | null {
  const quote = (line: string) => {
    const points = Array.from(line);
    return points.length <= quoteLimit ? line : `${points.slice(0, quoteLimit - 1).join('')}…`;
  };
  for (const hidden of html ? hiddenHtmlText(html) : []) {
    if (isAimedAtAssistant(hidden)) {
      return `Text hidden from you but written for an AI assistant: “${quote(injectionQuote(hidden) ?? hidden)}”`;
    }
  }
  // Text without an invisible character anywhere has no line written in them (most mail): one scan, no lines.
  if (stripHiddenText(text).text === text) return null;
  for (const line of text.split(/\r?\n/)) {
    const visible = stripHiddenText(line);
    if (visible.removed && isAimedAtAssistant(visible.text)) {
      return `Text written in invisible characters for an AI assistant: “${quote(visible.text.replace(/\s+/g, ' ').trim())}”`;
    }
  }
  return null;
}

const maxLinks = 500;

/** The first link whose text shows another host than it opens, with how many more do. */
function linkMismatchText(html: string | null): string | null {
  if (!html) return null;
  const found: { shown: string; opens: string }[] = [];
  for (const link of links(html)) {
    const opens = linkHost(link.href);
    const shown = opens ? shownHostMismatch(link.text, opens) : null;
    if (opens && shown) found.push({ shown, opens });
  }
  const [first] = found;
  if (!first) return null;
  const more = found.length > 1 ? ` (${found.length - 1} more link${found.length > 2 ? 's' : ''} too)` : '';
  return `A link shows ${first.shown} but opens ${first.opens}${more}.`;
}

function linkHost(href: string): string | null {
  // The URL parser drops tabs and newlines and trims controls (WHATWG URL), as the link dialog reads it.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: these are the characters the URL parser strips
  const cleaned = href.replace(/[\t\n\r]/g, '').replace(/^[\u0000-\u0020]+|[\u0000-\u0020]+$/g, '');
  try {
    const url = new URL(cleaned);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.hostname : null;
  } catch {
    return null;
  }
}

const anchor = /<a\b((?:[^>"']|"[^"]*"|'[^']*')*)>([\s\S]*?)<\/a\s*>/gi;
const hrefAttribute = /(?:^|\s)href\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/i;

/** Each link's href and its text (tags dropped, entities read), as a reader sees it. */
function links(html: string): { href: string; text: string }[] {
  const out: { href: string; text: string }[] = [];
  for (const match of html.matchAll(anchor)) {
    const attribute = hrefAttribute.exec(match[1] ?? '');
    if (!attribute) continue;
    const href = decodeEntities(attribute[1] ?? attribute[2] ?? attribute[3] ?? '');
    const text = decodeEntities((match[2] ?? '').replace(/<[^>]*>/g, ''))
      .replace(/\s+/g, ' ')
      .trim();
    out.push({ href, text });
    if (out.length >= maxLinks) break;
  }
  return out;
}
