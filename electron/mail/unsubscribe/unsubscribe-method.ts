// Which way a message's stored List-Unsubscribe links are used (issue 29 §3), and where each goes, for the
// confirmation to name before anything is done. Pure.
//
// The order is RFC 8058's preference: a one-click POST (https and the One-Click header) needs nothing from the
// person and leaves no trace in a browser; an email is next (it goes through the outbox, with Undo); a plain http
// link only opens in the browser, after saying so, since a page there may ask for anything.
import type { UnsubscribeLinks } from './list-unsubscribe.ts';
import { type MailtoMessage, readMailto } from './mailto.ts';

export type UnsubscribeWay =
  | { method: 'one-click'; url: string; host: string }
  | { method: 'mailto'; mail: MailtoMessage }
  | { method: 'http'; url: string; host: string };

/** The way to unsubscribe, or null when the links offer none Skimmer uses. */
export function chooseWay(links: UnsubscribeLinks): UnsubscribeWay | null {
  if (links.oneClick && links.https !== null) {
    return { method: 'one-click', url: links.https, host: new URL(links.https).host };
  }
  const mail = links.mailto === null ? null : readMailto(links.mailto);
  if (mail) return { method: 'mailto', mail };
  // An https link without the One-Click header is a page to open, as an http one is: never a request from here.
  const page = links.https ?? links.http;
  if (page !== null) return { method: 'http', url: page, host: new URL(page).host };
  return null;
}
