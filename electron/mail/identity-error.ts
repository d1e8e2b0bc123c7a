// What a change to your addresses (identities.ts) throws when it cannot be made; the bridge (bridge/errors.ts)
// maps it. Its own file, as mail-error.ts is, so the error table loads no address parser.

/** A change to your addresses that cannot be made; the message is a sentence for the user. */
export class IdentityError extends Error {
  readonly reason: 'invalid_address' | 'invalid_name' | 'invalid_signature' | 'account_address';
  constructor(reason: IdentityError['reason'], message: string) {
    super(message);
    this.reason = reason;
  }
}
