// What reading or answering a calendar invitation throws when it cannot (issue 29 §2); the bridge
// (bridge/errors.ts) maps it. Its own file, so the error table loads no iCalendar parser.
import { DomainError } from '../../domain-error.ts';

export type InvitationErrorReason = 'too_large' | 'malformed' | 'unsupported' | 'too_many';

/** An invitation that cannot be read or answered; the message is a sentence for the user. */
export class InvitationError extends DomainError<InvitationErrorReason> {}
