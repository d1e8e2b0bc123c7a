// Reply and Reply all (DESIGN §11, "Reply, reply all, forward"): a new message to the right people, from the
// right one of your addresses, with one `Re:`, the thread's headers, and the original quoted below your
// signature, with the line to write on at the top.
import {
  type ComposeOptions,
  type Composition,
  type Original,
  signatureBlock,
  type You,
} from './composition.ts';
import { chooseFrom } from './from.ts';
import { attribution, originalText, quoteLines, textLines } from './quote.ts';
import { replyRecipients } from './recipients.ts';
import { replyThreading } from './references.ts';
import { replySubject } from './subject.ts';

/** Reply: to its sender, or to its Reply-To. */
export const reply = (original: Original, you: You, options: ComposeOptions = {}): Composition =>
  answer(original, you, false, options);

/** Reply all: to its sender (or Reply-To), To and Cc, but not to you. */
export const replyAll = (original: Original, you: You, options: ComposeOptions = {}): Composition =>
  answer(original, you, true, options);

function answer(original: Original, you: You, all: boolean, options: ComposeOptions): Composition {
  const from = chooseFrom(original, you);
  // The account's own address is yours even before it is listed among your addresses.
  const yours = [
    ...you.identities.map((i) => i.address),
    ...(you.accountAddress ? [you.accountAddress] : []),
  ];
  const { to, cc } = replyRecipients(original, yours, all);
  const lines = textLines(originalText(original, options));
  const quote = lines.length > 0 ? `${attribution(original, options)}\n${quoteLines(lines)}\n` : '';
  return {
    from,
    to,
    cc,
    subject: replySubject(original.subject),
    body: `\n\n${signatureBlock(from?.signature ?? null)}${quote}`,
    original: original.id,
    ...replyThreading(original),
    attachments: [],
  };
}
