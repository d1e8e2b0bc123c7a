// A message as it goes to a server (a draft APPENDed to Drafts, a message sent by SMTP), composed by
// nodemailer's MailComposer: headers encoded, body as text, `In-Reply-To`/`References` for a reply, made by the
// rule the composer's draft follows (shared/compose/references.ts).
import { createRequire } from 'node:module';
import { replyThreading } from '../../../shared/compose/references.ts';

// Loaded when a message is first composed, not at every start of the command line (issue 18).
const require = createRequire(import.meta.url);

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
  const { inReplyTo, references } = replyThreading({
    messageId: m.inReplyTo ?? '',
    references: m.references ?? [],
  });
  const MailComposer =
    require('nodemailer/lib/mail-composer') as typeof import('nodemailer/lib/mail-composer').default;
  return new MailComposer({
    from: m.from,
    to: m.to,
    cc: m.cc,
    subject: m.subject,
    text: m.body,
    messageId: m.messageId,
    date: m.date,
    ...(inReplyTo ? { inReplyTo } : {}),
    ...(references.length > 0 ? { references } : {}),
  })
    .compile()
    .build();
}
