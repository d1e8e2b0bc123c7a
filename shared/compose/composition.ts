// What Reply, Reply all and Forward start from and what they make (DESIGN §11, "Reply, reply all, forward").
// Pure and in shared/: the renderer's composer and the main process make the same draft from the same message.
import type { Address, Attachment } from '../contract/index.ts';

/** One of the user's own addresses: what a message can be sent from, with its name and signature. */
export type Identity = { address: string; name: string | null; signature: string | null };

/** Your addresses, and the default of the account the original is in (null: it has none, as imported mail). */
export type You = { identities: readonly Identity[]; accountAddress: string | null };

/** An entry of an address header: a mailbox, or a group of them (`team: a@x.example, b@x.example;`). */
export type AddressEntry = Address | { name: string; group: readonly AddressEntry[] };

/** The message answered or forwarded, as stored. */
export type Original = {
  /** Its id in the mailbox: the draft's `inReplyTo`, and where a forwarded attachment's bytes are read from. */
  id: number;
  /** Its Message-ID ('' when it has none), References (oldest first) and In-Reply-To. */
  messageId: string;
  references: readonly string[];
  inReplyTo?: string | null;
  subject: string;
  from: Address;
  replyTo?: readonly AddressEntry[];
  to: readonly AddressEntry[];
  cc: readonly AddressEntry[];
  /** Epoch ms; 0 when it had no readable date. */
  date: number;
  /** Its plain text. For a message with HTML only, see `ComposeOptions.htmlText`. */
  text: string;
  html?: string | null;
  attachments: readonly Attachment[];
};

export type ComposeOptions = {
  /**
   * Renders HTML as plain text, for an original whose `text` is empty but which has HTML: the main process
   * passes html-to-text (as parse.ts does at import), the renderer what its sanitizer gives. Without it such a
   * message is quoted as empty.
   */
  htmlText?: (html: string) => string;
  /** The IANA time zone the date in the quote is written in; the system's when absent. */
  timeZone?: string;
};

/**
 * A forwarded attachment: what it is and where it is kept, never its bytes. The bytes stay where the original's
 * are (its file, its mbox offset or its place on the IMAP server) and are read when the message is sent.
 */
type CarriedAttachment = {
  /** The message it belongs to and its place in that message's attachment list. */
  message: number;
  index: number;
  name: string;
  contentType: string;
  size: number;
};

/** A new message, ready to become a draft. */
export type Composition = {
  /** Which of your addresses it is from; null when you have none (the sending account's own is used). */
  from: Identity | null;
  to: Address[];
  cc: Address[];
  subject: string;
  body: string;
  /** The message it was made from. */
  original: number;
  /** Threading headers: a reply's; null and [] for a forward. */
  inReplyTo: string | null;
  references: string[];
  attachments: CarriedAttachment[];
};

/**
 * A signature as it stands in a new message: `-- ` (the separator of RFC 3676 §4.3, by which mail programs tell
 * a signature apart; not doubled when the signature starts with it), the signature, then a blank line. Empty
 * for no signature.
 */
export function signatureBlock(signature: string | null): string {
  const text = (signature ?? '').replace(/\r\n?/g, '\n').replace(/\s+$/, '');
  if (text.trim() === '') return '';
  return text.startsWith('-- \n') ? `${text}\n\n` : `-- \n${text}\n\n`;
}
