// Signing in with OAuth 2.0 (issue 28): the page (or the CLI) starts a sign-in and gets the provider's address
// to open in a new tab or the system browser, then waits for it to end. The redirect comes back to a loopback
// listener of the main process, never to the page; no code or token ever crosses the bridge.
import { z } from 'zod';
import { AccountView } from './accounts.ts';
import { Id } from './fields.ts';

const TlsMode = z.enum(['tls', 'starttls', 'none']);
const ServerSettings = z
  .object({ host: z.string().trim().min(1).max(253), port: z.number().int().min(1).max(65535), tls: TlsMode })
  .strict();
// A random id of our own (UUID) naming one sign-in between its start and its end.
const SignInId = z.string().min(1).max(64);
// `opened`: the desktop app opened the address in the system browser itself (the shell); otherwise (the browser
// mode, the CLI) the caller opens it: the page in a new tab, the CLI by printing it.
const Started = z.object({
  signInId: SignInId,
  authorizeUrl: z.string().url().max(8192),
  opened: z.boolean(),
});

export const oauthChannels = {
  'account:oauthPresets': {
    // The providers Skimmer knows (Google, Microsoft, Yahoo, AOL), with the mail servers each names.
    request: z.object({}).strict(),
    // `builtInClient`: this build brings its own client id for the provider (a packaged app's
    // oauth-clients.json), so the person need not register one; the id itself stays in the main process.
    response: z.array(
      z.object({
        name: z.string(),
        label: z.string(),
        imap: ServerSettings,
        smtp: ServerSettings,
        builtInClient: z.boolean(),
      }),
    ),
  },
  'account:oauthStart': {
    // A new account: `provider` is a preset's name or an issuer's address (https://, or http:// on this
    // computer); the servers default to the preset's. Checked before anything opens; nothing is stored until the
    // sign-in ends well (`account:oauthWait`).
    request: z
      .object({
        name: z.string().trim().min(1).max(64),
        user: z.string().trim().min(1).max(320),
        provider: z.string().trim().min(1).max(2048),
        // Absent: the build's own client for that preset (`builtInClient`); refused with a sentence if it has none.
        clientId: z.string().trim().min(1).max(512).optional(),
        // A desktop client's "secret" (Google's), which is not secret in an app people install; kept in the vault.
        clientSecret: z.string().min(1).max(512).optional(),
        imap: ServerSettings.optional(),
        smtp: ServerSettings.optional(),
      })
      .strict(),
    response: Started,
  },
  'account:oauthSignIn': {
    // An existing account signs in again ("Sign in again" after the provider refused the saved sign-in).
    request: z.object({ id: Id }).strict(),
    response: Started,
  },
  'account:oauthWait': {
    // Ends with the account once the redirect came back and the tokens are saved (then its sync starts), or
    // fails with a sentence: a wrong state, access denied, the token endpoint's refusal, 10 minutes, a cancel.
    request: z.object({ signInId: SignInId }).strict(),
    response: AccountView,
  },
  'account:oauthCancel': {
    request: z.object({ signInId: SignInId }).strict(),
    response: z.object({ cancelled: z.boolean() }),
  },
} as const;
