// What discovery refuses, with the sentence to show. The reason is a closed set; only electron/bridge/errors.ts
// turns it into an envelope code. A source that fails (a file that is not XML, DNS that does not answer) is not
// this: it is a warning beside what the other sources found. This is thrown only when there is nothing to show.
import { DomainError } from '../../domain-error.ts';

export type DiscoveryErrorReason =
  /** What was typed is not one mail address. */
  | 'invalid_address'
  /** No source gave an IMAP server that may be used; the sentence says what each one answered. */
  | 'nothing_found';

export class DiscoveryError extends DomainError<DiscoveryErrorReason> {}
