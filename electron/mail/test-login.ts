// "Test" on an account (issue 5): logs in and out again, so the user learns whether the settings work before
// a sync needs them. A refusal is Skimmer's sentence about the server that refused (imap-connect.ts).
import type { AccountLogin } from './accounts.ts';
import { imapClient, mailFailure, TokenRejected } from './imap/imap-connect.ts';
import { smtpTransport } from './send/smtp-connect.ts';

/** Logs in to IMAP (and SMTP when the account has it) and out again. */
export async function testAccount(login: AccountLogin): Promise<{ ok: boolean; message: string }> {
  // An access token the server refused has been refreshed by then (imap-connect.ts): one more login with it.
  for (let attempt = 0; ; attempt++) {
    const client = imapClient(login, { connectMs: 10_000, greetingMs: 10_000, socketMs: 30_000 });
    client.on('error', () => {});
    try {
      await client.connect();
      await client.logout();
      break;
    } catch (e) {
      if (e instanceof TokenRejected && attempt === 0) continue;
      return { ok: false, message: mailFailure(e, `the IMAP server ${login.imap.host}`).message };
    } finally {
      client.close();
    }
  }
  if (login.smtp) {
    const transport = smtpTransport(login);
    try {
      await transport.verify();
    } catch (e) {
      return { ok: false, message: mailFailure(e, `the SMTP server ${login.smtp.host}`).message };
    } finally {
      transport.close();
    }
  }
  return {
    ok: true,
    message: `Logged in to ${login.imap.host}${login.smtp ? ` and ${login.smtp.host}` : ''}.`,
  };
}
