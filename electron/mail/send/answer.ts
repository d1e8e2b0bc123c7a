// A draft made from a message in the mailbox (DESIGN §11, "Reply, reply all, forward"): the message read as
// shared/compose's Original, composed with your addresses (identities.ts), and the writer's own text put on
// the line the composition leaves for it, above the signature and the quote.
import { createRequire } from 'node:module';
import type { Composition, Original, You } from '../../../shared/compose/composition.ts';
import { forward } from '../../../shared/compose/forward.ts';
import { reply, replyAll } from '../../../shared/compose/reply.ts';
import type { Address, Attachment } from '../../../shared/contract/index.ts';
import { addressKey } from '../../../shared/mail-address.ts';
import type { Db } from '../../db/open.ts';
import { MailError } from '../mail-error.ts';
import type { NewDraft } from './drafts.ts';

// html-to-text is loaded when an HTML message is first answered, not at every start of the command line.
const require = createRequire(import.meta.url);

type Row = {
  id: number;
  account_id: number;
  message_id: string;
  in_reply_to: string | null;
  refs: string;
  subject: string;
  from_name: string;
  from_addr: string;
  to_json: string;
  cc_json: string;
  reply_to_json: string;
  date: number;
  body_text: string;
  body_html: string | null;
  attachments_json: string;
  imap: number;
};

/** What a reply or forward is made as: `reply`, `all` (reply all) or `forward`. */
export type AnswerKind = 'reply' | 'all' | 'forward';

export function prepareAnswers(db: Db, you: (accountId: number | null) => You) {
  const byId = db.prepare<[number], Row>(
    `SELECT m.*, f.account_id, EXISTS (SELECT 1 FROM imap_accounts i WHERE i.account_id = f.account_id) AS imap
       FROM messages m JOIN folders f ON f.id = m.folder_id WHERE m.id = ?`,
  );

  return {
    /** The composition for `kind` of message `id`, with `text` as what the writer wrote above the quote. */
    compose(id: number, kind: AnswerKind, text: string): Composition {
      const row = byId.get(id);
      if (!row) throw new MailError('not_found', `There is no message with id ${id}.`);
      const original: Original = {
        id: row.id,
        messageId: row.message_id,
        references: JSON.parse(row.refs) as string[],
        inReplyTo: row.in_reply_to,
        subject: row.subject,
        from: { name: row.from_name, address: row.from_addr },
        replyTo: JSON.parse(row.reply_to_json) as Address[],
        to: JSON.parse(row.to_json) as Address[],
        cc: JSON.parse(row.cc_json) as Address[],
        date: row.date,
        text: row.body_text,
        html: row.body_html,
        attachments: JSON.parse(row.attachments_json) as Attachment[],
      };
      // Imported mail belongs to no account that has an address of its own.
      const yours = you(row.imap ? row.account_id : null);
      const options = {
        htmlText: (html: string) =>
          (require('html-to-text') as typeof import('html-to-text')).convert(html, { wordwrap: false }),
      };
      const made =
        kind === 'forward'
          ? forward(original, yours, options)
          : (kind === 'all' ? replyAll : reply)(original, yours, options);
      // The composition starts with an empty line to write on, then a blank line.
      const own = text.replace(/\r\n?/g, '\n').replace(/\s+$/, '');
      return own === '' ? made : { ...made, body: `${own}\n${made.body.replace(/^\n/, '')}` };
    },
  };
}

/**
 * The draft a composition makes: a reply's recipients are the composition's (the headers only, never an
 * address in a body), a forward's the ones given (`forwardTo`); Cc leaves out who is already in To.
 */
export function draftOf(made: Composition, kind: AnswerKind, forwardTo: readonly string[]): NewDraft {
  const forward = kind === 'forward';
  const to = forward ? [...forwardTo] : made.to.map((a) => a.address);
  const seen = new Set(to.map(addressKey));
  return {
    // Which of your addresses the composition chose (shared/compose/from.ts).
    fromAddress: made.from?.address ?? null,
    to,
    cc: made.cc.map((a) => a.address).filter((a) => !seen.has(addressKey(a))),
    subject: made.subject,
    body: made.body,
    inReplyTo: forward ? null : made.original,
    // A forward carries the original's files by reference; their bytes are read when it is sent.
    forwardOf: forward ? made.original : null,
    carried: forward ? made.attachments : [],
  };
}
