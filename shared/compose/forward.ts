// Forward (DESIGN §11, "Reply, reply all, forward"): a new message to nobody yet, with one `Fwd:`, the
// original's headers and text below your signature, and its attachments carried by reference: the composer
// lists them, and their bytes are read from where the original's are kept only when the message is sent.
import type { Address } from '../contract/index.ts';
import {
  type ComposeOptions,
  type Composition,
  type Original,
  signatureBlock,
  type You,
} from './composition.ts';
import { chooseFrom } from './from.ts';
import { dateText, originalText, textLines } from './quote.ts';
import { flattenAddresses } from './recipients.ts';
import { forwardSubject } from './subject.ts';

/** The line Gmail starts a forwarded message with, which people and programs recognise. */
export const forwardedLine = '---------- Forwarded message ---------';

/** A forward of `original`. */
export function forward(original: Original, you: You, options: ComposeOptions = {}): Composition {
  const from = chooseFrom(original, you);
  const to = flattenAddresses(original.to);
  const cc = flattenAddresses(original.cc);
  const headers = [
    forwardedLine,
    `From: ${shown([original.from])}`,
    ...(original.date > 0 ? [`Date: ${dateText(original.date, options)}`] : []),
    `Subject: ${original.subject.trim()}`,
    ...(to.length > 0 ? [`To: ${shown(to)}`] : []),
    ...(cc.length > 0 ? [`Cc: ${shown(cc)}`] : []),
  ];
  const lines = textLines(originalText(original, options));
  return {
    from,
    to: [],
    cc: [],
    subject: forwardSubject(original.subject),
    body: `\n\n${signatureBlock(from?.signature ?? null)}${[...headers, '', ...lines].join('\n')}\n`,
    original: original.id,
    inReplyTo: null,
    references: [],
    attachments: original.attachments.map((a, index) => ({
      message: original.id,
      index,
      name: a.name,
      contentType: a.contentType,
      size: a.size,
    })),
  };
}

// `Priya Raman <priya@example.com>, sam@example.com`, for the headers block.
const shown = (list: readonly Address[]) =>
  list
    .map((a) => {
      const name = a.name.trim();
      const address = a.address.trim();
      return name && address ? `${name} <${address}>` : name || address;
    })
    .join(', ');
