// Mail accounts: their IMAP and SMTP servers, sync, and the background sync's watch.
import { z } from 'zod';
import { EpochMs, Id } from './fields.ts';

// A mail server's password: written once, never returned (views carry `hasPassword`).
const Password = z.string().min(1).max(4096);

const TlsMode = z.enum(['tls', 'starttls', 'none']);
// Host, port and TLS mode of a mail server; the full rules (plaintext only on loopback) are in
// shared/mail-account.ts and run in the main process before anything is stored.
const ServerSettings = z
  .object({ host: z.string().trim().min(1).max(253), port: z.number().int().min(1).max(65535), tls: TlsMode })
  .strict();
export const AccountView = z.object({
  id: Id,
  name: z.string(),
  user: z.string(),
  imap: ServerSettings,
  smtp: ServerSettings.nullable(),
  // The password is written once and never returned.
  hasPassword: z.boolean(),
  syncedAt: EpochMs.nullable(),
  lastError: z.string().nullable(),
  // 'oauth2': signed in at a provider (issue 28; its refresh token is the vault's, never returned). `needsSignIn`:
  // the provider refused the saved sign-in, so sync and sending wait for "Sign in again" (`account:oauthSignIn`).
  auth: z.enum(['password', 'oauth2']),
  needsSignIn: z.boolean(),
});
export type AccountView = z.infer<typeof AccountView>;
export const SyncSummary = z.object({
  folders: z.number().int().nonnegative(),
  messages: z.number().int().nonnegative(),
  added: z.number().int().nonnegative(),
  linked: z.number().int().nonnegative(),
  removed: z.number().int().nonnegative(),
  flagsChanged: z.number().int().nonnegative(),
  pushed: z.number().int().nonnegative(),
  // Unread mail the round brought to INBOX after its first sync (for the new-mail notification); `latest` is
  // the newest (at most 3), as the server gave them: untrusted text.
  newMail: z.object({
    firstSync: z.boolean(),
    count: z.number().int().nonnegative(),
    latest: z.array(z.object({ from: z.string(), subject: z.string() })).max(3),
  }),
});
// A folder's sync as it goes: messages stored of those this round downloads, the rate so far, the time left.
export const SyncProgress = z.object({
  folder: z.string(),
  done: z.number().int().nonnegative(),
  total: z.number().int().nonnegative(),
  perSecond: z.number().nonnegative(),
  etaSeconds: z.number().int().nonnegative().nullable(),
});
export type SyncProgress = z.infer<typeof SyncProgress>;
export type SyncSummary = z.infer<typeof SyncSummary>;

export const accountChannels = {
  'account:list': {
    request: z.object({}).strict(),
    response: z.array(AccountView),
  },
  'account:add': {
    // Saving never connects; "Test" and "Sync" are explicit actions.
    request: z
      .object({
        name: z.string().trim().min(1).max(64),
        user: z.string().trim().min(1).max(320),
        password: Password,
        imap: ServerSettings,
        smtp: ServerSettings.optional(),
      })
      .strict(),
    response: AccountView,
  },
  'account:update': {
    // A new password (after the server refused the old one): saved, and the background sync starts again.
    request: z.object({ id: Id, password: Password }).strict(),
    response: AccountView,
  },
  'account:test': {
    request: z.object({ id: Id }).strict(),
    response: z.object({ ok: z.boolean(), message: z.string() }),
  },
  'account:remove': {
    request: z.object({ id: Id }).strict(),
    response: z.object({ removed: z.boolean() }),
  },
  'account:sync': {
    // Progress streams as sync_progress, then sync_done or error; Stop is run:cancel.
    request: z.object({ id: Id }).strict(),
    response: z.object({ streamId: z.string() }),
  },
  'account:watch': {
    // One stream for the page's lifetime: account_status events of every account's background sync, an
    // outbox event whenever a message in the outbox changes (queued, sent, failed, cancelled, dismissed), and
    // a triage_job event when new mail started a question set's job or that job ended (DESIGN §9).
    request: z.object({}).strict(),
    response: z.object({ streamId: z.string() }),
  },
  'account:focus': {
    // The folder the page shows (null: none, or all mail): its account's background sync waits for news on it
    // (IDLE) instead of INBOX. `watching` is false when no background sync watches that folder.
    request: z.object({ folderId: Id.nullable() }).strict(),
    response: z.object({ watching: z.boolean() }),
  },
} as const;
