// The background sync's connections to an account's server, kept logged in between rounds (issue 5): a new
// connection costs 6–8 round trips before the news is even asked for (TCP, greeting, LOGIN, ID, NAMESPACE,
// ENABLE; TLS adds its own), and a provider sees a login each time (Gmail and others throttle frequent logins;
// Thunderbird keeps its connections open too). Connection 0 syncs and, between syncs, IDLEs on the first folder
// waited on; connection 1 IDLEs on INBOX beside an open folder (imap-idle.ts). One the server closed, one a
// failed sync closed (imap-sync.ts), or one that timed out is not reused: the next ask logs in anew. close()
// (Stop) closes every one at once.
import type { ImapFlow } from 'imapflow';
import type { AccountLogin } from '../accounts.ts';
import {
  defaultTimeouts,
  type ImapTimeouts,
  imapClient,
  MailFailure,
  TokenRejected,
} from './imap-connect.ts';

export type ImapSession = {
  /** Connection `i`, logged in: the one kept, or a new one when it is gone (or still the one logging in). */
  connection(i: number): Promise<ImapFlow>;
  /** Closes connection `i`, no longer needed (the wait is on one folder now). */
  drop(i: number): void;
  /** Closes every connection at once; no new one is opened after it. */
  close(): void;
};

type Slot = { client: ImapFlow; ready: Promise<ImapFlow>; connecting: boolean };

export function imapSession(login: AccountLogin, timeouts: ImapTimeouts = defaultTimeouts): ImapSession {
  const slots = new Map<number, Slot>();
  let closed = false;
  const drop = (i: number) => {
    slots.get(i)?.client.close();
    slots.delete(i);
  };
  return {
    connection(i) {
      if (closed) return Promise.reject(new MailFailure('cancelled', 'The sync was stopped.', false));
      const kept = slots.get(i);
      // A login in progress is shared, so the wait and the sync never open two connections for one slot.
      if (kept && (kept.connecting || kept.client.usable)) return kept.ready;
      drop(i);
      const made = () => {
        const c = imapClient(login, timeouts);
        // An IDLE that hears nothing for the socket timeout is ended by imapflow's keepalive NOOP and, with
        // auto-IDLE off (imap-connect.ts), not started again: the connection then falls quiet and is closed at
        // the next timeout. Restarting the IDLE at half that time keeps a quiet connection in IDLE (RFC 2177
        // asks for a restart within 29 minutes anyway).
        c.maxIdleTime = timeouts.socketMs / 2;
        // imapflow reports a dropped connection as an 'error' event too; the command in flight rejects with it.
        c.on('error', () => {});
        return c;
      };
      const client = made();
      const slot: Slot = { client, ready: Promise.resolve(client), connecting: true };
      // An access token the server refused has been refreshed (imap-connect.ts): one more login with it.
      slot.ready = client.connect().then(
        () => client,
        async (e: unknown) => {
          if (!(e instanceof TokenRejected) || closed) throw e;
          client.close();
          const again = made();
          slot.client = again;
          await again.connect();
          return again;
        },
      );
      slot.ready.then(
        () => {
          slot.connecting = false;
        },
        () => {
          slot.connecting = false;
          slot.client.close();
        },
      );
      slots.set(i, slot);
      return slot.ready;
    },
    drop,
    close() {
      closed = true;
      for (const i of [...slots.keys()]) drop(i);
    },
  };
}
