// Thunderbird's autoconfig file (clientConfig 1.1, the format of autoconfig.DOMAIN/mail/config-v1.1.xml and of
// Mozilla's ISPDB): its IMAP and SMTP servers in the file's order, their TLS, user name and whether they take
// OAuth2, read with @xmldom/xmldom (a W3C DOMParser, strict here: any error stops the parse). Pure: the bytes
// come from fetch-config.ts; which server is used is discover.ts's choice.
import { DOMParser, type Element, onErrorStopParsing } from '@xmldom/xmldom';
import type { TlsMode } from '../../../shared/mail-account.ts';

export class ConfigFileError extends Error {}

type ConfigServer = {
  host: string;
  port: number;
  /** From `socketType`: SSL is implicit TLS, STARTTLS, plain is none. */
  tls: TlsMode;
  /** `username` with its placeholders filled in; null when the file names none. */
  user: string | null;
  /** An `<authentication>OAuth2</authentication>` among its methods. */
  oauth: boolean;
};

export type ClientConfig = {
  imap: ConfigServer[];
  smtp: ConfigServer[];
  /** `<oAuth2><issuer>`, as the file gives it (a host name in Thunderbird's files). */
  oauthIssuer: string | null;
  /** Servers left out, each with why (a port that is not one, an unknown socketType). */
  skipped: string[];
};

const socketTypes: Record<string, TlsMode> = { ssl: 'tls', tls: 'tls', starttls: 'starttls', plain: 'none' };

const childText = (el: Element, name: string): string | null => {
  for (let n = el.firstChild; n; n = n.nextSibling) {
    if (n.nodeType === n.ELEMENT_NODE && (n as Element).localName === name)
      return n.textContent?.trim() ?? '';
  }
  return null;
};
const childTexts = (el: Element, name: string): string[] => {
  const out: string[] = [];
  for (let n = el.firstChild; n; n = n.nextSibling) {
    if (n.nodeType === n.ELEMENT_NODE && (n as Element).localName === name)
      out.push(n.textContent?.trim() ?? '');
  }
  return out;
};

/** Fills in Thunderbird's placeholders: %EMAILADDRESS%, %EMAILLOCALPART% and %EMAILDOMAIN%. */
function fill(text: string, address: string): string {
  const at = address.lastIndexOf('@');
  return text
    .replaceAll('%EMAILADDRESS%', address)
    .replaceAll('%EMAILLOCALPART%', address.slice(0, at))
    .replaceAll('%EMAILDOMAIN%', address.slice(at + 1));
}

/** The file's servers for `address`; a ConfigFileError when the text is not a clientConfig XML document. */
export function readClientConfig(text: string, address: string): ClientConfig {
  // SECURITY: a DOCTYPE is where entity definitions live (a "billion laughs" expansion, an external entity);
  // no autoconfig file needs one, so a file with one is refused before it is parsed.
  if (/<!DOCTYPE/i.test(text))
    throw new ConfigFileError('it declares a DOCTYPE, which an autoconfig file never needs');
  let root: Element | null;
  try {
    root = new DOMParser({ onError: onErrorStopParsing }).parseFromString(text, 'text/xml').documentElement;
  } catch (e) {
    throw new ConfigFileError(
      `it is not XML (${(e instanceof Error ? e.message : String(e)).split('\n')[0]})`,
    );
  }
  if (root?.localName !== 'clientConfig') {
    throw new ConfigFileError('it is XML but not an autoconfig file (no clientConfig)');
  }
  const out: ClientConfig = { imap: [], smtp: [], oauthIssuer: null, skipped: [] };
  const providers = Array.from(root.getElementsByTagName('emailProvider'));
  for (const provider of providers) {
    for (let n = provider.firstChild; n; n = n.nextSibling) {
      if (n.nodeType !== n.ELEMENT_NODE) continue;
      const el = n as Element;
      const kind =
        el.localName === 'incomingServer' && el.getAttribute('type') === 'imap'
          ? 'imap'
          : el.localName === 'outgoingServer' && el.getAttribute('type') === 'smtp'
            ? 'smtp'
            : null;
      if (!kind) continue; // POP3, Exchange and the like: Skimmer speaks IMAP and SMTP
      const host = fill(childText(el, 'hostname') ?? '', address).toLowerCase();
      const portText = childText(el, 'port') ?? '';
      const port = /^\d{1,5}$/.test(portText) ? Number(portText) : Number.NaN;
      const tls = socketTypes[(childText(el, 'socketType') ?? '').toLowerCase()];
      const what = `${kind.toUpperCase()} server ${host || '(no host)'}:${portText || '?'}`;
      if (!host || !(port >= 1 && port <= 65535)) {
        out.skipped.push(`the ${what} has no usable host or port`);
        continue;
      }
      if (!tls) {
        out.skipped.push(`the ${what} has an unknown socketType`);
        continue;
      }
      const user = childText(el, 'username');
      out[kind].push({
        host,
        port,
        tls,
        user: user ? fill(user, address) : null,
        oauth: childTexts(el, 'authentication').some((a) => a.toLowerCase() === 'oauth2'),
      });
    }
  }
  const oauth = root.getElementsByTagName('oAuth2')[0];
  const issuer = oauth ? childText(oauth, 'issuer') : null;
  out.oauthIssuer = issuer || null;
  return out;
}
