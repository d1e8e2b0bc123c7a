// What unsubscribing throws when it cannot (unsubscribe.ts, one-click-post.ts); the bridge maps it once
// (bridge/errors.ts). Its own file, as mail-error.ts is, so the error table loads no HTTP client.
import { DomainError } from '../../domain-error.ts';

export type UnsubscribeErrorReason =
  /** No such message. */
  | 'not_found'
  /** The message offers no way to unsubscribe that Skimmer uses. */
  | 'none'
  /** The list's server answered, but not with success (a 4xx or 5xx). */
  | 'refused'
  /** The list's server sent the request elsewhere: another host, plain HTTP, or too many times. */
  | 'redirect'
  /** The list's server could not be reached, had no valid certificate, or did not answer in time. */
  | 'unreachable';

/** An unsubscribe that did not happen; the message is a sentence for the user, naming the host. */
export class UnsubscribeError extends DomainError<UnsubscribeErrorReason> {}
