// What a sign-in with OAuth 2.0 refuses or fails with (issue 28), with the sentence to show. The reason is a
// closed set; only electron/bridge/errors.ts turns it into an envelope code. SECURITY: no sentence carries a
// code, a token, a verifier or the provider's own text beyond its registered error code.
import { DomainError } from '../../domain-error.ts';

export type OAuthErrorReason =
  /** Settings that cannot be used as they are: an issuer that is not https (or http on this computer), no client id. */
  | 'invalid'
  /** The issuer's metadata could not be found or read. */
  | 'discovery'
  /** The redirect's `state` is not this sign-in's: another page, or an old tab, reached the listener. */
  | 'state'
  /** The person (or the provider) refused: `error=access_denied` and the other errors of the redirect. */
  | 'denied'
  /** The provider's token endpoint refused the code or answered what Skimmer cannot use. */
  | 'token'
  /** The provider refused the saved sign-in (`invalid_grant`: revoked, expired, password changed). */
  | 'refused'
  /** Nobody finished the sign-in within its time (10 minutes). */
  | 'timeout'
  /** The sign-in was stopped (Ctrl+C, Cancel, the app closing). */
  | 'cancelled'
  /** No sign-in with that id is waiting (finished, stopped, or never started). */
  | 'not_found'
  /** The provider could not be reached. */
  | 'unreachable';

export class OAuthError extends DomainError<OAuthErrorReason> {}
