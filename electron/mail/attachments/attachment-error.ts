// What reading an attachment's bytes throws when it cannot (attachment-bytes.ts); the bridge maps it once
// (bridge/errors.ts). Its own file, as mail-error.ts is, so the error table loads no mail parser.
import { DomainError } from '../../domain-error.ts';

export type AttachmentErrorReason =
  /** No such message, or it has no attachment of that number. */
  | 'not_found'
  /** The imported file is gone, refused by the file rule, or could not be read. */
  | 'unreadable'
  /** The file or the server holds another message than the one stored (rewritten since). */
  | 'changed'
  /** The message is no longer on its mail server. */
  | 'gone'
  /** The mail server could not be reached or refused. */
  | 'server'
  /** Larger than Skimmer reads for one attachment. */
  | 'too_large';

/** An attachment whose bytes cannot be read now; the message is a sentence for the user. */
export class AttachmentError extends DomainError<AttachmentErrorReason> {}
