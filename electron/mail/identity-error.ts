// What a change to your addresses (identities.ts) throws when it cannot be made; the bridge (bridge/errors.ts)
// maps it. Its own file, as mail-error.ts is, so the error table loads no address parser.
import { DomainError } from '../domain-error.ts';

export type IdentityErrorReason =
  | 'invalid_address'
  | 'invalid_name'
  | 'invalid_signature'
  | 'account_address';

/** A change to your addresses that cannot be made; the message is a sentence for the user. */
export class IdentityError extends DomainError<IdentityErrorReason> {}
