import type { Migration } from '../migrate.ts';

// Accounts that sign in with OAuth 2.0 (issue 28). `imap_accounts.auth` (0011) says 'oauth2'; this row holds
// where the account signs in — the provider's endpoints as the sign-in found them (a preset's, or discovered
// from the issuer), the client id the person registered, the scope and the authorization request's extra
// parameters — and whether the provider refused the saved sign-in (`needs_signin`: "Sign in again"). The refresh
// token and a client secret live in the vault, never here; an access token only in memory.
export const m0036: Migration = {
  version: 36,
  name: 'oauth-accounts',
  up(db) {
    db.exec(`
      CREATE TABLE oauth_accounts (
        account_id INTEGER PRIMARY KEY REFERENCES accounts(id) ON DELETE CASCADE,
        preset TEXT,
        issuer TEXT NOT NULL,
        authorization_endpoint TEXT NOT NULL,
        token_endpoint TEXT NOT NULL,
        client_id TEXT NOT NULL,
        scope TEXT NOT NULL,
        extra_params_json TEXT NOT NULL DEFAULT '{}',
        needs_signin INTEGER NOT NULL DEFAULT 0 CHECK (needs_signin IN (0, 1))
      ) STRICT;
    `);
  },
};
