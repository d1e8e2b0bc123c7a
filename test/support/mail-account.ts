// The IMAP + SMTP account the tests add through the bridge, as the Accounts dialog does: Dovecot and the SMTP
// sink on loopback, the test user of both.
import type { App } from '../../electron/app.ts';
import { call } from './bridge.ts';
import type { Dovecot } from './dovecot.ts';
import type { SmtpSink } from './smtp-sink.ts';

/** Adds the account (not synced yet); its id. */
export async function addMailAccount(app: App, server: Dovecot, sink: SmtpSink): Promise<number> {
  const account = await call(app, 'account:add', {
    name: 'work',
    user: 'test@example.com',
    password: 'secret',
    imap: { host: server.host, port: server.port, tls: 'none' },
    smtp: { host: sink.host, port: sink.port, tls: 'none' },
  });
  return account.id;
}
