// A message as it goes to a server (a draft APPENDed to Drafts, a message sent by SMTP), composed by
// nodemailer's MailComposer: headers encoded, body as text, `In-Reply-To`/`References` for a reply, made by the
// rule the composer's draft follows (shared/compose/references.ts), and the files attached.
import { createRequire } from 'node:module';
import { replyThreading } from '../../../shared/compose/references.ts';

// Loaded when a message is first composed, not at every start of the command line (issue 18).
const require = createRequire(import.meta.url);

/** A file as it is attached: its bytes in hand (read from the draft, or from where a forwarded one is kept). */
export type OutgoingFile = { name: string; contentType: string; content: Buffer };

export type Outgoing = {
  /** The login, or one of your addresses with its name (DESIGN §11, "From"). */
  from: string | { name: string | null; address: string };
  to: string[];
  cc: string[];
  /**
   * Written as a Bcc header only with `keepBcc` (the Sent copy and the Drafts copy, as Thunderbird keeps
   * them); what goes out by SMTP never names them: they are in the envelope alone (outbox.ts).
   */
  bcc?: string[];
  keepBcc?: boolean;
  subject: string;
  body: string;
  messageId: string;
  date: Date;
  /** The Message-ID this answers and the thread's references (oldest first), for threading. */
  inReplyTo?: string | null;
  references?: string[];
  attachments?: readonly OutgoingFile[];
};

export function compose(m: Outgoing): Promise<Buffer> {
  const { inReplyTo, references } = replyThreading({
    messageId: m.inReplyTo ?? '',
    references: m.references ?? [],
  });
  const MailComposer =
    require('nodemailer/lib/mail-composer') as typeof import('nodemailer/lib/mail-composer').default;
  const from = typeof m.from === 'string' ? m.from : { name: m.from.name ?? '', address: m.from.address };
  const bcc = m.bcc ?? [];
  const files = m.attachments ?? [];
  // An iTIP message (an invitation's REPLY: mail/calendar/invitations.ts) goes as the calendar alternative of
  // the text, text/calendar with its METHOD, and as an .ics file beside it (RFC 6047 §2.4; what Google and
  // Outlook send and read). nodemailer's icalEvent writes both.
  const itip = files.find((a) => itipMethod(a.contentType) !== null);
  const composer = new MailComposer({
    from,
    to: m.to,
    cc: m.cc,
    ...(bcc.length > 0 ? { bcc } : {}),
    subject: m.subject,
    text: m.body,
    messageId: m.messageId,
    date: m.date,
    ...(inReplyTo ? { inReplyTo } : {}),
    ...(references.length > 0 ? { references } : {}),
    ...(itip
      ? {
          icalEvent: {
            method: itipMethod(itip.contentType) as string,
            filename: itip.name,
            content: itip.content,
          },
        }
      : {}),
    attachments: files
      .filter((a) => a !== itip)
      .map((a) => ({
        filename: a.name,
        contentType: a.contentType,
        content: a.content,
      })),
  }).compile();
  // MailComposer leaves Bcc out of the message unless told (nodemailer's keepBcc, mail-composer/index.js).
  if (m.keepBcc) composer.keepBcc = true;
  return composer.build();
}

/** The iTIP method of a text/calendar file that carries one (`text/calendar; method=REPLY`), else null. */
function itipMethod(contentType: string): string | null {
  if (!/^text\/calendar\b/i.test(contentType)) return null;
  return /;\s*method=["']?([A-Za-z-]+)/i.exec(contentType)?.[1]?.toUpperCase() ?? null;
}
