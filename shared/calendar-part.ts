// Which part of a message is its invitation (issue 29 §2). Google, Outlook and Fastmail send the calendar as the
// text/calendar;method=REQUEST alternative of the body (with no name), Google and Fastmail add the same calendar
// as an application/ics attachment, iCloud sends a named text/calendar part. The attachment list (parse.ts for
// imported mail, imap-message.ts for synced mail) lists every part that is neither the text nor the HTML body,
// the alternative included, so the calendar is found there and read as any attachment is (attachment-bytes.ts).
import type { Attachment } from './contract/mail.ts';

const isCalendarType = (t: string) => /^text\/calendar\b/i.test(t);
const isIcsFile = (a: Attachment) => /^application\/ics\b/i.test(a.contentType) || /\.ics$/i.test(a.name);

/** The index in the attachment list of the message's calendar part, or null when it has none. */
export function calendarPartIndex(list: readonly Attachment[]): number | null {
  // The text/calendar part first: it is the one the sender means as the invitation; an .ics file second.
  const typed = list.findIndex((a) => isCalendarType(a.contentType));
  if (typed >= 0) return typed;
  const file = list.findIndex(isIcsFile);
  return file >= 0 ? file : null;
}
