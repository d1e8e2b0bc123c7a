// IMAP accounts (issue 5): server settings checked before they are stored (shared/mail-account.ts), the
// password in the vault under `account:<id>`, never in SQLite, never in a view. Owns `imap_accounts` and the
// 'imap' rows of `accounts`. Saving never connects; "Test" and "Sync" are explicit actions.
import { checkServer, type ServerSettings, type TlsMode } from '../../shared/mail-account.ts';
import type { Db } from '../db/open.ts';
import type { KeyVault } from '../secrets/key-vault.ts';
import { MailError } from './mail-error.ts';

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
};

/** What a connection needs; holds the password, so it never leaves the main process. */
export type AccountLogin = AccountView & { password: string };

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
};

const accountSecretName = (id: number) => `account:${id}`;
const accountName = /^[A-Za-z0-9][A-Za-z0-9._@-]{0,63}$/;

export function prepareAccounts(db: Db, vault: KeyVault, now: () => number = Date.now) {
  const columns = `a.id, a.name, i.imap_host, i.imap_port, i.imap_tls, i.username, i.smtp_host, i.smtp_port,
    i.smtp_tls, i.synced_at, i.last_error`;
  const all = db.prepare<[], Row>(
    `SELECT ${columns} FROM accounts a JOIN imap_accounts i ON i.account_id = a.id ORDER BY a.name`,
  );
  const byId = db.prepare<[number], Row>(
    `SELECT ${columns} FROM accounts a JOIN imap_accounts i ON i.account_id = a.id WHERE a.id = ?`,
  );
  const byName = db.prepare<[string], Row>(
    `SELECT ${columns} FROM accounts a JOIN imap_accounts i ON i.account_id = a.id WHERE a.name = ?`,
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
    hasPassword: vault.has(accountSecretName(r.id)),
    syncedAt: r.synced_at,
    lastError: r.last_error,
  });

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

    /** The account with its password, for a connection. */
    async login(id: number): Promise<AccountLogin> {
      const v = view(found(byId.get(id)));
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
      return del.run(id).changes > 0;
    },
  };
}

export type Accounts = ReturnType<typeof prepareAccounts>;
