// `skimmer account add|list|test|sync --once`: the mail accounts. add, list and test go through their
// `account:*` channels; sync runs the one sync the `account:sync` channel runs (syncAndRecord), in the
// foreground, with its progress on a terminal's stderr.
import { channels } from '../../shared/contract/index.ts';
import type { App } from '../app.ts';
import { MailFailure } from '../mail/imap/imap-connect.ts';
import { syncAndRecord } from '../mail/imap/sync-and-record.ts';
import { bridgeCall } from './bridge-call.ts';
import type { Command } from './command.ts';
import { UsageError } from './failures.ts';
import { familyUsageSentence } from './flags.ts';
import { browserOpener } from './open-browser.ts';
import { readStdin } from './read-stdin.ts';
import { syncProgressPrinter } from './sync-progress.ts';

function accountId(app: App, name: string): number {
  const account = app.accounts.list().find((a) => a.name === name);
  if (!account) throw new UsageError(`There is no account named "${name}": see \`skimmer account list\`.`);
  return account.id;
}

export const accountCommand: Command = async (app, args, values, io, signal) => {
  const [sub, name, ...rest] = args;
  const print = (o: object) => io.out(JSON.stringify(o));
  if (sub === 'list' && name === undefined) {
    const r = await bridgeCall(app, 'account:list', {}, io);
    if (!r.ok) return r.exitCode;
    const list = channels['account:list'].response.parse(r.value);
    for (const a of list) {
      if (values.json) print(a);
      else {
        const synced = a.syncedAt ? `synced ${new Date(a.syncedAt).toISOString()}` : 'never synced';
        const signIn = a.needsSignIn ? `  Sign in again: skimmer account signin ${a.name}` : '';
        io.out(
          `${a.name}  ${a.user}  ${a.imap.host}:${a.imap.port} (${a.imap.tls})  ${synced}${a.lastError ? `  last error: ${a.lastError}` : ''}${signIn}`,
        );
      }
    }
    if (!values.json && list.length === 0)
      io.out('No mail accounts yet: add one with `skimmer account add`.');
    return 0;
  }
  if (sub === 'add' && name !== undefined && rest.length === 0) {
    const server = (host?: string, port?: string, tls?: string) => {
      if (!host || !port || !tls) return undefined;
      const n = Number(port);
      if (!Number.isInteger(n)) throw new UsageError(`The port "${port}" is not a number.`);
      if (!['tls', 'starttls', 'none'].includes(tls))
        throw new UsageError('TLS takes one of tls, starttls or none.');
      return { host, port: n, tls };
    };
    const imap = server(values['imap-host'], values['imap-port'], values.tls);
    const smtpGiven = values['smtp-host'] ?? values['smtp-port'] ?? values['smtp-tls'];
    const smtp = server(values['smtp-host'], values['smtp-port'], values['smtp-tls']);
    if (smtpGiven && !smtp) throw new UsageError('Give --smtp-host, --smtp-port and --smtp-tls together.');
    if (values.oauth !== undefined) {
      if (values['password-stdin'])
        throw new UsageError('--oauth signs in in the browser: it takes no password.');
      if (!values['client-id'] && !(await buildHasClient(app, values.oauth, io))) {
        throw new UsageError(
          '--oauth needs --client-id: the id of the client you registered with the provider.',
        );
      }
      if (!values.user) throw new UsageError('--oauth needs --user ADDRESS, the address that signs in.');
      if ((values['imap-host'] ?? values['imap-port'] ?? values.tls) && !imap) {
        throw new UsageError('Give --imap-host, --imap-port and --tls together.');
      }
      return signIn(app, io, values.json === true, signal, 'account:oauthStart', {
        name,
        user: values.user,
        provider: values.oauth,
        ...(values['client-id'] ? { clientId: values['client-id'] } : {}),
        ...(values['client-secret'] ? { clientSecret: values['client-secret'] } : {}),
        ...(imap ? { imap } : {}),
        ...(smtp ? { smtp } : {}),
      });
    }
    if (!imap || !values.user) {
      throw new UsageError('account add needs --imap-host, --imap-port, --tls and --user.');
    }
    if (!values['password-stdin'])
      throw new UsageError('Pass the password on standard input with --password-stdin.');
    // SECURITY: the password comes on stdin, never as an argument (visible to every user in `ps`).
    const password = await readStdin();
    if (!password) throw new UsageError('--password-stdin was given but standard input was empty.');
    const r = await bridgeCall(
      app,
      'account:add',
      { name, user: values.user, password, imap, ...(smtp ? { smtp } : {}) },
      io,
    );
    if (!r.ok) return r.exitCode;
    const a = channels['account:add'].response.parse(r.value);
    if (values.json) print(a);
    else io.out(`Added ${a.name} (${a.user} at ${a.imap.host}). ${app.vault.info.message}`);
    return 0;
  }
  if (sub === 'signin' && name !== undefined && rest.length === 0) {
    return signIn(app, io, values.json === true, signal, 'account:oauthSignIn', { id: accountId(app, name) });
  }
  if (sub === 'test' && name !== undefined && rest.length === 0) {
    const r = await bridgeCall(app, 'account:test', { id: accountId(app, name) }, io);
    if (!r.ok) return r.exitCode;
    const t = channels['account:test'].response.parse(r.value);
    if (values.json) print(t);
    else (t.ok ? io.out : io.err)(t.message);
    return t.ok ? 0 : 1;
  }
  if (sub === 'sync' && name !== undefined && rest.length === 0) {
    if (!values.once)
      throw new UsageError('Use `skimmer account sync NAME --once` (the app keeps syncing by itself).');
    const id = accountId(app, name);
    const controller = new AbortController();
    signal?.addEventListener('abort', () => controller.abort(), { once: true });
    try {
      const summary = await syncAndRecord(app, id, {
        signal: controller.signal,
        // Per folder, as the app's folder list says it; with --json every progress event, before the summary.
        onProgress: syncProgressPrinter(values.json === true, io),
      });
      if (values.json) print(summary);
      else {
        io.out(
          `Synced ${summary.folders} folders, ${summary.messages} messages: ${summary.added} new, ${summary.removed} removed, ${summary.flagsChanged} flag changes.`,
        );
      }
      return 0;
    } catch (e) {
      if (!(e instanceof MailFailure)) throw e;
      if (values.json) print({ type: 'error', code: e.code, message: e.message });
      else io.err(e.message);
      if (!values.json && app.accounts.list().find((a) => a.id === id)?.needsSignIn)
        io.err(`Sign in again: skimmer account signin ${name}`);
      return e.code === 'cancelled' ? 130 : 1;
    }
  }
  throw new UsageError(familyUsageSentence('account'));
};

// Whether this build brings its own client for the preset named (build-clients.ts): then --client-id may be left out.
async function buildHasClient(app: App, provider: string, io: Parameters<Command>[3]): Promise<boolean> {
  const r = await bridgeCall(app, 'account:oauthPresets', {}, io);
  if (!r.ok) return false;
  const name = provider.trim().toLowerCase();
  return channels['account:oauthPresets'].response
    .parse(r.value)
    .some((p) => p.name === name && p.builtInClient);
}

// A sign-in in the browser (issue 28): the address to open is printed as soon as it is known (`{"authorize": URL}`
// with --json), then the command waits for the redirect to Skimmer's loopback listener; Ctrl+C (the command's
// signal) or the sign-in's 10 minutes end the wait with nothing stored. Then the account, as `account add` prints
// it. SECURITY: no token is printed or passed on; they stay in the vault and the token broker.
async function signIn(
  app: App,
  io: Parameters<Command>[3],
  json: boolean,
  signal: AbortSignal | undefined,
  channel: 'account:oauthStart' | 'account:oauthSignIn',
  request: object,
): Promise<number> {
  const started = await bridgeCall(app, channel, request, io);
  if (!started.ok) return started.exitCode;
  const { signInId, authorizeUrl } = channels[channel].response.parse(started.value);
  // Ctrl+C cancels the sign-in (its listener closes, nothing is stored) rather than killing the process mid-way.
  // Listening before the address is printed: whoever reads it may press Ctrl+C (or send SIGINT) at once.
  let stopped = false;
  const stop = () => {
    stopped = true;
    void bridgeCall(app, 'account:oauthCancel', { signInId }, io);
  };
  signal?.addEventListener('abort', stop, { once: true });
  process.once('SIGINT', stop);
  if (json) io.out(JSON.stringify({ authorize: authorizeUrl }));
  else {
    // With --json a script reads the address and opens it; a person at a desktop gets their browser too.
    const open = browserOpener();
    const opened = open
      ? await open(authorizeUrl).then(
          () => true,
          () => false,
        )
      : false;
    io.out(
      opened
        ? `Opened the sign-in page in your browser (waiting up to 10 minutes; Ctrl+C stops). If it did not open, go to:\n${authorizeUrl}`
        : `Open this address to sign in (waiting up to 10 minutes; Ctrl+C stops):\n${authorizeUrl}`,
    );
  }
  try {
    const r = await bridgeCall(app, 'account:oauthWait', { signInId }, io);
    if (!r.ok) return stopped ? 130 : r.exitCode;
    const a = channels['account:oauthWait'].response.parse(r.value);
    if (json) io.out(JSON.stringify(a));
    else io.out(`Signed in: ${a.name} (${a.user} at ${a.imap.host}). ${app.vault.info.message}`);
    return 0;
  } finally {
    signal?.removeEventListener('abort', stop);
    process.removeListener('SIGINT', stop);
  }
}
