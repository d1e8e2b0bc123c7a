// The sign-in channels of the bridge (issue 28; shared/contract/oauth.ts): a sign-in is started, its address
// handed to the page (or the CLI) to open, and waited for; it ends with the account stored, or signed in again,
// and its background sync started. Everything an account needs is checked before the sign-in starts, so a person
// who signed in never meets a refusal that could have come first. SECURITY: tokens stay in the main process —
// the refresh token goes to the vault, the access token to the token broker; the bridge sees neither.
import { randomUUID } from 'node:crypto';
import { isOAuthPreset, oauthPresets } from '../../../shared/oauth-issuer.ts';
import type { Log } from '../../log.ts';
import type { Accounts, AccountView } from '../../mail/accounts.ts';
import type { AccountSync } from '../../mail/imap/account-sync.ts';
import { MailError } from '../../mail/mail-error.ts';
import type { BuildClients } from '../../mail/oauth/build-clients.ts';
import type { OAuthClient, OAuthNet } from '../../mail/oauth/oauth-client.ts';
import { OAuthError } from '../../mail/oauth/oauth-error.ts';
import { type PendingSignIn, planFor, startSignIn } from '../../mail/oauth/sign-in.ts';
import type { TokenBroker } from '../../mail/oauth/token-broker.ts';
import type { Handlers } from '../dispatch.ts';

type Deps = {
  accounts: Accounts;
  tokens: TokenBroker;
  log: Log;
  background: AccountSync | null;
  /** The desktop's system browser (main.ts: shell.openExternal behind its scheme check); absent elsewhere. */
  openExternal?: ((url: string) => Promise<void>) | undefined;
  /** Tests shorten the sign-in's 10 minutes. */
  timeoutMs?: number;
  /** Certificate authorities trusted beside the system's (AppOptions.extraCa). */
  net?: OAuthNet;
  /** The client ids this build brings (build-clients.ts), by preset. */
  buildClients?: BuildClients;
};

type Waiting = { pending: PendingSignIn; done: Promise<AccountView> };

// A finished sign-in's outcome waits this long for its `account:oauthWait` (the page may ask late).
const keptMs = 60_000;

export function oauthHandlers(
  deps: Deps,
): Pick<
  Handlers,
  | 'account:oauthPresets'
  | 'account:oauthStart'
  | 'account:oauthSignIn'
  | 'account:oauthWait'
  | 'account:oauthCancel'
> {
  const waiting = new Map<string, Waiting>();

  const track = async (
    pending: PendingSignIn,
    finish: (t: Awaited<PendingSignIn['tokens']>) => Promise<AccountView>,
  ) => {
    const signInId = randomUUID();
    const done = pending.tokens.then(finish);
    done.catch(() => {});
    done.finally(() => setTimeout(() => waiting.delete(signInId), keptMs).unref()).catch(() => {});
    waiting.set(signInId, { pending, done });
    let opened = false;
    if (deps.openExternal) {
      try {
        await deps.openExternal(pending.authorizeUrl);
        opened = true;
      } catch (e) {
        // The address is still handed back, to open by hand.
        deps.log.error('oauth_open', e);
      }
    }
    return { signInId, authorizeUrl: pending.authorizeUrl, opened };
  };

  const restartSync = async (id: number) => {
    await deps.background?.stop(id);
    void deps.background?.start(id).catch((e: unknown) => deps.log.error('account_sync_start', e));
  };

  // The person's own client id, else the build's for that preset; the build's secret goes only with its own id.
  const clientFor = (
    preset: string | null,
    r: { clientId?: string | undefined; clientSecret?: string | undefined },
  ): OAuthClient => {
    if (r.clientId) return { clientId: r.clientId, clientSecret: r.clientSecret };
    const built = preset !== null && isOAuthPreset(preset) ? deps.buildClients?.[preset] : undefined;
    if (built) return { clientId: built.clientId, clientSecret: built.clientSecret };
    throw new MailError(
      'invalid',
      'Give the client id you registered with the provider: this build brings none for it (Skimmer ships none).',
    );
  };

  const timeout = {
    ...(deps.timeoutMs === undefined ? {} : { timeoutMs: deps.timeoutMs }),
    net: deps.net ?? {},
  };

  return {
    'account:oauthPresets': () =>
      Object.entries(oauthPresets).map(([name, p]) => ({
        name,
        label: p.label,
        imap: p.imap,
        smtp: p.smtp,
        builtInClient: isOAuthPreset(name) && deps.buildClients?.[name] !== undefined,
      })),

    'account:oauthStart': async (r) => {
      const plan = await planFor(r.provider, undefined, timeout.net);
      const imap = r.imap ?? plan.imap;
      if (!imap) {
        throw new MailError(
          'invalid',
          'Give the IMAP server (host, port and TLS): the provider does not name one.',
        );
      }
      const smtp = r.smtp ?? plan.smtp ?? undefined;
      const account = { name: r.name, user: r.user, imap, ...(smtp ? { smtp } : {}) };
      // The name, the user and the servers are refused now, before the person signs in, not after.
      deps.accounts.checkNew(account);
      const client = clientFor(plan.preset, r);
      const pending = await startSignIn(plan, client, { loginHint: r.user, ...timeout });
      return track(pending, async (t) => {
        const view = await deps.accounts.addOAuth({
          ...account,
          oauth: {
            preset: plan.preset,
            server: plan.server,
            clientId: client.clientId,
            scope: plan.scope,
            extraParams: plan.extraParams,
          },
          clientSecret: client.clientSecret,
          refreshToken: t.refreshToken,
        });
        deps.tokens.seed(view.id, { token: t.accessToken, expiresAt: t.expiresAt });
        void deps.background?.start(view.id).catch((e: unknown) => deps.log.error('account_sync_start', e));
        return view;
      });
    },

    'account:oauthSignIn': async (r) => {
      const settings = deps.accounts.oauthSettings(r.id);
      if (!settings)
        throw new MailError('invalid', 'This account logs in with a password, not with a provider.');
      const view = deps.accounts.list().find((a) => a.id === r.id);
      const client = { clientId: settings.clientId, clientSecret: await deps.accounts.clientSecret(r.id) };
      const pending = await startSignIn(settings, client, {
        ...(view ? { loginHint: view.user } : {}),
        ...timeout,
      });
      return track(pending, async (t) => {
        const signedIn = await deps.accounts.signedIn(r.id, t.refreshToken);
        deps.tokens.seed(r.id, { token: t.accessToken, expiresAt: t.expiresAt });
        // The sync stopped on the refused sign-in: it starts again where it stopped.
        await restartSync(r.id);
        return signedIn;
      });
    },

    'account:oauthWait': async (r) => {
      const w = waiting.get(r.signInId);
      if (!w)
        throw new OAuthError('not_found', 'No sign-in with that id is waiting (it ended, or never started).');
      try {
        return await w.done;
      } finally {
        waiting.delete(r.signInId);
      }
    },

    'account:oauthCancel': (r) => {
      const w = waiting.get(r.signInId);
      if (!w) return { cancelled: false };
      w.pending.cancel();
      return { cancelled: true };
    },
  };
}
