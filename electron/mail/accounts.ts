// IMAP accounts (issue 5): server settings checked before they are stored (shared/mail-account.ts), the
// password in the vault under `account:<id>`, never in SQLite, never in a view. Owns `imap_accounts` and the
// 'imap' rows of `accounts`. Saving never connects; "Test" and "Sync" are explicit actions.
import { checkServer, type ServerSettings, type TlsMode } from '../../shared/mail-account.ts';
import type { Db } from '../db/open.ts';
import type { KeyVault } from '../secrets/key-vault.ts';
import { MailError } from './mail-error.ts';
import type { OAuthClient, OAuthServer } from './oauth/oauth-client.ts';
import type { OAuthLogin, TokenBroker, TokenStore } from './oauth/token-broker.ts';

export type NewAccount = {
  name: string;
  user: string;
  password: string;
  imap: ServerSettings;
  smtp?: ServerSettings;
};

export type AccountView = {
  id: number;
  name: string;
  user: string;
  imap: ServerSettings;
  smtp: ServerSettings | null;
  hasPassword: boolean;
  syncedAt: number | null;
  lastError: string | null;
  /** 'oauth2': signed in at a provider (issue 28); `hasPassword` then says whether a refresh token is saved. */
  auth: 'password' | 'oauth2';
  /** The provider refused the saved sign-in: sync and sending wait until the person signs in again. */
  needsSignIn: boolean;
};

/** Where an account signs in with OAuth, as stored (the refresh token is the vault's). */
export type OAuthSettings = {
  preset: string | null;
  server: OAuthServer;
  clientId: string;
  scope: string;
  extraParams: Record<string, string>;
};

export type NewOAuthAccount = Omit<NewAccount, 'password'> & {
  oauth: OAuthSettings;
  clientSecret?: string | undefined;
  refreshToken: string;
};

/**
 * What a connection needs; holds the password, so it never leaves the main process. An account that signs in
 * with OAuth has no password (''), and `oauth` names where its threads ask for an access token
 * (oauth/token-broker.ts); the refresh token never leaves the main thread.
 */
export type AccountLogin = AccountView & { password: string; oauth?: OAuthLogin };

type Row = {
  id: number;
  name: string;
  imap_host: string;
  imap_port: number;
  imap_tls: TlsMode;
  username: string;
  smtp_host: string | null;
  smtp_port: number | null;
  smtp_tls: TlsMode | null;
  synced_at: number | null;
  last_error: string | null;
  auth: 'password' | 'oauth2';
  needs_signin: number | null;
};

type OAuthRow = {
  preset: string | null;
  issuer: string;
  authorization_endpoint: string;
  token_endpoint: string;
  client_id: string;
  scope: string;
  extra_params_json: string;
};

const accountSecretName = (id: number) => `account:${id}`;
// SECURITY: an OAuth account's refresh token (and a desktop client's secret) are the vault's, like passwords.
const refreshSecretName = (id: number) => `account-refresh:${id}`;
const clientSecretName = (id: number) => `account-client-secret:${id}`;
const accountName = /^[A-Za-z0-9][A-Za-z0-9._@-]{0,63}$/;

export function prepareAccounts(db: Db, vault: KeyVault, now: () => number = Date.now) {
  const columns = `a.id, a.name, i.imap_host, i.imap_port, i.imap_tls, i.username, i.smtp_host, i.smtp_port,
    i.smtp_tls, i.synced_at, i.last_error, i.auth, o.needs_signin`;
  const from = `accounts a JOIN imap_accounts i ON i.account_id = a.id
    LEFT JOIN oauth_accounts o ON o.account_id = a.id`;
  const all = db.prepare<[], Row>(`SELECT ${columns} FROM ${from} ORDER BY a.name`);
  const byId = db.prepare<[number], Row>(`SELECT ${columns} FROM ${from} WHERE a.id = ?`);
  const byName = db.prepare<[string], Row>(`SELECT ${columns} FROM ${from} WHERE a.name = ?`);
  const oauthOf = db.prepare<[number], OAuthRow>(
    `SELECT preset, issuer, authorization_endpoint, token_endpoint, client_id, scope, extra_params_json
     FROM oauth_accounts WHERE account_id = ?`,
  );
  const addOAuth = db.prepare(
    `INSERT INTO oauth_accounts (account_id, preset, issuer, authorization_endpoint, token_endpoint, client_id,
       scope, extra_params_json)
     VALUES (@id, @preset, @issuer, @authorizationEndpoint, @tokenEndpoint, @clientId, @scope, @extra)`,
  );
  const setAuth = db.prepare<[number]>("UPDATE imap_accounts SET auth = 'oauth2' WHERE account_id = ?");
  const setNeedsSignIn = db.prepare<[number, number]>(
    'UPDATE oauth_accounts SET needs_signin = ? WHERE account_id = ?',
  );
  const nameTaken = db.prepare<[string]>('SELECT 1 FROM accounts WHERE name = ?').pluck();
  const addAccount = db.prepare<[string]>("INSERT INTO accounts (kind, name) VALUES ('imap', ?)");
  const addImap = db.prepare(
    `INSERT INTO imap_accounts (account_id, imap_host, imap_port, imap_tls, username, smtp_host, smtp_port,
       smtp_tls, created_at)
     VALUES (@id, @imapHost, @imapPort, @imapTls, @user, @smtpHost, @smtpPort, @smtpTls, @at)`,
  );
  const del = db.prepare<[number]>("DELETE FROM accounts WHERE id = ? AND kind = 'imap'");
  const setSynced = db.prepare<[number | null, string | null, number]>(
    'UPDATE imap_accounts SET synced_at = coalesce(?, synced_at), last_error = ? WHERE account_id = ?',
  );

  const view = (r: Row): AccountView => ({
    id: r.id,
    name: r.name,
    user: r.username,
    imap: { host: r.imap_host, port: r.imap_port, tls: r.imap_tls },
    smtp:
      r.smtp_host && r.smtp_port && r.smtp_tls
        ? { host: r.smtp_host, port: r.smtp_port, tls: r.smtp_tls }
        : null,
    hasPassword: vault.has(r.auth === 'oauth2' ? refreshSecretName(r.id) : accountSecretName(r.id)),
    syncedAt: r.synced_at,
    lastError: r.last_error,
    auth: r.auth,
    needsSignIn: r.auth === 'oauth2' && r.needs_signin === 1,
  });

  const oauthSettings = (id: number): OAuthSettings | null => {
    const o = oauthOf.get(id);
    if (!o) return null;
    return {
      preset: o.preset,
      server: {
        issuer: o.issuer,
        authorizationEndpoint: o.authorization_endpoint,
        tokenEndpoint: o.token_endpoint,
      },
      clientId: o.client_id,
      scope: o.scope,
      extraParams: JSON.parse(o.extra_params_json) as Record<string, string>,
    };
  };

  const checkedName = (raw: string): string => {
    const name = raw.trim();
    if (!accountName.test(name)) {
      throw new MailError('invalid', 'Name the account with 1–64 letters, digits, dots, dashes, @ or _.');
    }
    if (nameTaken.get(name) !== undefined) {
      throw new MailError('invalid', `There is already an account named "${name}".`);
    }
    return name;
  };

  const checkedUser = (raw: string): string => {
    const user = raw.trim();
    if (user === '' || user.length > 320)
      throw new MailError('invalid', 'Give the user name to log in with.');
    return user;
  };

  // Where the sign-in's threads ask for access tokens (set by the app once its token broker runs).
  let broker: Pick<TokenBroker, 'login' | 'forget'> | null = null;

  const checked = (what: 'IMAP' | 'SMTP', s: ServerSettings): ServerSettings => {
    const c = checkServer(what, s);
    if (!c.ok) throw new MailError('invalid', c.reason);
    return c.value;
  };

  const found = (row: Row | undefined): Row => {
    if (!row) throw new MailError('not_found', 'That account does not exist.');
    return row;
  };

  return {
    list: (): AccountView[] => all.all().map(view),

    byName: (name: string): AccountView => view(found(byName.get(name))),

    async add(a: NewAccount): Promise<AccountView> {
      const name = a.name.trim();
      if (!accountName.test(name)) {
        throw new MailError('invalid', 'Name the account with 1–64 letters, digits, dots, dashes, @ or _.');
      }
      const user = a.user.trim();
      if (user === '' || user.length > 320)
        throw new MailError('invalid', 'Give the user name to log in with.');
      if (a.password === '') throw new MailError('invalid', 'Give the password (or app password).');
      const imap = checked('IMAP', a.imap);
      const smtp = a.smtp ? checked('SMTP', a.smtp) : null;
      if (nameTaken.get(name) !== undefined) {
        throw new MailError('invalid', `There is already an account named "${name}".`);
      }
      const id = db.transaction((): number => {
        const accountId = Number(addAccount.run(name).lastInsertRowid);
        addImap.run({
          id: accountId,
          imapHost: imap.host,
          imapPort: imap.port,
          imapTls: imap.tls,
          user,
          smtpHost: smtp?.host ?? null,
          smtpPort: smtp?.port ?? null,
          smtpTls: smtp?.tls ?? null,
          at: now(),
        });
        return accountId;
      })();
      try {
        await vault.set(accountSecretName(id), a.password);
      } catch (e) {
        del.run(id);
        throw e;
      }
      return view(found(byId.get(id)));
    },

    async setPassword(id: number, password: string): Promise<AccountView> {
      found(byId.get(id));
      await vault.set(accountSecretName(id), password);
      setSynced.run(null, null, id);
      return view(found(byId.get(id)));
    },

    /** Refuses what `addOAuth` would refuse, before the person signs in. */
    checkNew(a: Omit<NewAccount, 'password'>): void {
      checked('IMAP', a.imap);
      if (a.smtp) checked('SMTP', a.smtp);
      checkedUser(a.user);
      checkedName(a.name);
    },

    /**
     * An account that signs in with OAuth, stored with the tokens its sign-in just got: the refresh token into
     * the vault, never the database; nothing is stored when the vault refuses it.
     */
    async addOAuth(a: NewOAuthAccount): Promise<AccountView> {
      const imap = checked('IMAP', a.imap);
      const smtp = a.smtp ? checked('SMTP', a.smtp) : null;
      const user = checkedUser(a.user);
      const name = checkedName(a.name);
      const id = db.transaction((): number => {
        const accountId = Number(addAccount.run(name).lastInsertRowid);
        addImap.run({
          id: accountId,
          imapHost: imap.host,
          imapPort: imap.port,
          imapTls: imap.tls,
          user,
          smtpHost: smtp?.host ?? null,
          smtpPort: smtp?.port ?? null,
          smtpTls: smtp?.tls ?? null,
          at: now(),
        });
        setAuth.run(accountId);
        addOAuth.run({
          id: accountId,
          preset: a.oauth.preset,
          issuer: a.oauth.server.issuer,
          authorizationEndpoint: a.oauth.server.authorizationEndpoint,
          tokenEndpoint: a.oauth.server.tokenEndpoint,
          clientId: a.oauth.clientId,
          scope: a.oauth.scope,
          extra: JSON.stringify(a.oauth.extraParams),
        });
        return accountId;
      })();
      try {
        await vault.set(refreshSecretName(id), a.refreshToken);
        if (a.clientSecret) await vault.set(clientSecretName(id), a.clientSecret);
      } catch (e) {
        vault.remove(refreshSecretName(id));
        del.run(id);
        throw e;
      }
      return view(found(byId.get(id)));
    },

    /** Where an OAuth account signs in (null for a password account), for signing in again. */
    oauthSettings(id: number): OAuthSettings | null {
      found(byId.get(id));
      return oauthSettings(id);
    },

    async clientSecret(id: number): Promise<string | undefined> {
      return (await vault.get(clientSecretName(id))) ?? undefined;
    },

    /** A new sign-in of an OAuth account: its new refresh token saved, "Sign in again" and the last error gone. */
    async signedIn(id: number, refreshToken: string): Promise<AccountView> {
      found(byId.get(id));
      await vault.set(refreshSecretName(id), refreshToken);
      setNeedsSignIn.run(0, id);
      setSynced.run(null, null, id);
      return view(found(byId.get(id)));
    },

    /** The token broker's view of the accounts (oauth/token-broker.ts); set `login` once it runs. */
    tokenStore(): TokenStore {
      return {
        settings: async (id) => {
          const row = byId.get(id);
          const o = row ? oauthSettings(id) : null;
          if (!row || !o) return null;
          const client: OAuthClient = {
            clientId: o.clientId,
            clientSecret: (await vault.get(clientSecretName(id))) ?? undefined,
          };
          return { name: row.name, server: o.server, client, needsSignIn: row.needs_signin === 1 };
        },
        refreshToken: (id) => vault.get(refreshSecretName(id)),
        saveRefreshToken: (id, token) => vault.set(refreshSecretName(id), token),
        refused: (id) => void setNeedsSignIn.run(1, id),
      };
    },

    setTokenBroker(b: Pick<TokenBroker, 'login' | 'forget'>): void {
      broker = b;
    },

    /** The account with its password (or, signed in with OAuth, where its access tokens come from). */
    async login(id: number): Promise<AccountLogin> {
      const v = view(found(byId.get(id)));
      if (v.auth === 'oauth2') {
        if (!broker)
          throw new MailError(
            'invalid',
            `The account "${v.name}" signs in with a provider, which this program cannot use.`,
          );
        return { ...v, password: '', oauth: broker.login };
      }
      const password = await vault.get(accountSecretName(id));
      if (password === null)
        throw new MailError('not_found', `The account "${v.name}" has no password saved.`);
      return { ...v, password };
    },

    /** Records how the last sync went: `error` null clears it; `at` null keeps the last success time. */
    synced(id: number, at: number | null, error: string | null): void {
      setSynced.run(at, error, id);
    },

    remove(id: number): boolean {
      vault.remove(accountSecretName(id));
      vault.remove(refreshSecretName(id));
      vault.remove(clientSecretName(id));
      broker?.forget(id);
      return del.run(id).changes > 0;
    },
  };
}

export type Accounts = ReturnType<typeof prepareAccounts>;
