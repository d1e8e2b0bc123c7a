// Waiting for new mail (issue 5): one connection per folder (the one the user has open, and INBOX; see
// idle-folder.ts) selects it and IDLEs (RFC 2177) until the server reports a new, removed or changed message
// in any of them, or until `maxWaitMs` (servers end IDLE after about 30 minutes; we return sooner so the
// other folders are looked at too). Closing the connections ends the wait.
import type { ImapFlow } from 'imapflow';
import type { AccountLogin } from './accounts.ts';
import { imapClient } from './imap-connect.ts';

/** What the last sync saw of a folder when it opened it. */
export type FolderSeen = { uidNext: number; exists: number };

/** Mail came or went since the sync looked: the server's counts are not the ones the sync saw. */
export const changedSince = (now: FolderSeen, before: FolderSeen | null) =>
  before !== null && (now.uidNext !== before.uidNext || now.exists !== before.exists);

export async function waitForChange(
  login: AccountLogin,
  signal: AbortSignal,
  opts: { paths: string[]; maxWaitMs?: number; seen?: (path: string) => FolderSeen | null },
): Promise<void> {
  const clients: ImapFlow[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  const stop = () => {
    for (const c of clients) c.close();
  };
  signal.addEventListener('abort', stop, { once: true });
  try {
    for (const [i, path] of opts.paths.entries()) {
      if (signal.aborted) return;
      const client = imapClient(login);
      client.on('error', () => {});
      clients.push(client);
      let box: { uidNext: number; exists: number };
      try {
        await client.connect();
        box = await client.mailboxOpen(path, { readOnly: true });
      } catch (e) {
        // Without the first folder (the one the user looks at) there is nothing to wait on. A further one is
        // a bonus: a server at its limit on connections (Dovecot answers the login with [LIMIT], Gmail with
        // "Too many simultaneous connections") leaves the wait on the folders before it, not in an error loop.
        if (i === 0 || signal.aborted) throw e;
        client.close();
        clients.pop();
        break;
      }
      // Mail that arrived between the sync's look at this folder and this SELECT would get no IDLE notice:
      // IDLE only reports what changes after it starts. So what the server has now is compared with what the
      // sync saw.
      if (changedSince(box, opts.seen?.(path) ?? null)) return;
    }
    if (signal.aborted) return;
    await new Promise<void>((resolve, reject) => {
      const done = () => resolve();
      for (const client of clients) {
        // A connection that dropped while the next one was opening has no 'close' left to report.
        if (!client.usable) done();
        client.on('exists', done);
        client.on('expunge', done);
        client.on('flags', done);
        client.on('close', done);
        client.idle().catch(reject);
      }
      timer = setTimeout(done, opts.maxWaitMs ?? 5 * 60_000);
    });
  } finally {
    clearTimeout(timer);
    signal.removeEventListener('abort', stop);
    for (const c of clients) c.close();
  }
}
