// A message as it goes to a server (a draft APPENDed to Drafts, a message sent by SMTP), composed by
// nodemailer's MailComposer: headers encoded, body as text, `In-Reply-To`/`References` for a reply.
import MailComposer from 'nodemailer/lib/mail-composer';

export type Outgoing = {
  from: string;
  to: string[];
  cc: string[];
  subject: string;
  body: string;
  messageId: string;
  date: Date;
  /** The Message-ID this answers and the thread's references (oldest first), for threading. */
  inReplyTo?: string | null;
  references?: string[];
};

export function compose(m: Outgoing): Promise<Buffer> {
  const references = [...(m.references ?? []), ...(m.inReplyTo ? [m.inReplyTo] : [])];
  return new MailComposer({
    from: m.from,
    to: m.to,
    cc: m.cc,
    subject: m.subject,
    text: m.body,
    messageId: m.messageId,
    date: m.date,
    ...(m.inReplyTo ? { inReplyTo: m.inReplyTo } : {}),
    ...(references.length > 0 ? { references: [...new Set(references)] } : {}),
  })
    .compile()
    .build();
}
