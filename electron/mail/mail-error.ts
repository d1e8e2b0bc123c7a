// What the mail side refuses, with the sentence to show (a tool's result carries it to the model too). The
// reason is a closed set; only electron/bridge/errors.ts turns it into an envelope code. A mail server's own
// failure (a refused login, a lost connection) is a MailFailure (imap-connect.ts), not this.
import { DomainError } from '../domain-error.ts';

export type MailErrorReason =
  /** An account, draft, message, outbox item or undo entry named by id or name is not there. */
  | 'not_found'
  /** A folder named by the model or a triage rule does not exist; the sentence lists those that do. */
  | 'no_folder'
  /** Settings or a draft that cannot be saved or sent as they are. */
  | 'invalid'
  /** No account can send mail (none has an SMTP server). */
  | 'no_sender'
  /** It cannot be done now: already undone, or an outbox message still on its way. */
  | 'wrong_state';

export class MailError extends DomainError<MailErrorReason> {}
