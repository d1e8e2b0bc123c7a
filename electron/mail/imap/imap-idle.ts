// Waiting for new mail (issue 5): one kept connection per folder (the one the user has open, and INBOX; see
// idle-folder.ts and imap-session.ts) selects it and IDLEs (RFC 2177) until the server reports a new, removed
// or changed message in any of them, or until `maxWaitMs` (servers end IDLE after about 30 minutes; we return
// sooner so the other folders are looked at too). The wait ends without closing them: the sync that follows
// runs on connection 0 (its first command ends the IDLE there), and the next wait IDLEs on them again.
import type { ImapFlow } from 'imapflow';
import type { ImapSession } from './imap-session.ts';

/** What the last sync saw of a folder when it opened it. */
export type FolderSeen = { uidNext: number; exists: number };

/** Mail came or went since the sync looked: the server's counts are not the ones the sync saw. */
export const changedSince = (now: FolderSeen, before: FolderSeen | null) =>
  before !== null && (now.uidNext !== before.uidNext || now.exists !== before.exists);

export async function waitForChange(
  session: Pick<ImapSession, 'connection' | 'drop'>,
  signal: AbortSignal,
  opts: { paths: string[]; maxWaitMs?: number; seen?: (path: string) => FolderSeen | null },
): Promise<void> {
  const clients: ImapFlow[] = [];
  // No longer waited on: INBOX's own connection when INBOX is the only folder.
  for (let i = opts.paths.length; i < 2; i++) session.drop(i);
  for (const [i, path] of opts.paths.entries()) {
    if (signal.aborted) return;
    let box: { uidNext: number; exists: number };
    let client: ImapFlow;
    try {
      client = await session.connection(i);
      // Selected again every time, also on a connection that still has the folder selected: its counts are
      // what the check below compares, and it forgets what the connection heard during the sync (the sync's
      // own flag changes, mail it has stored since), which would otherwise wake this wait at once.
      box = await client.mailboxOpen(path, { readOnly: true });
    } catch (e) {
      // Without the first folder (the one the user looks at) there is nothing to wait on. A further one is
      // a bonus: a server at its limit on connections (Dovecot answers the login with [LIMIT], Gmail with
      // "Too many simultaneous connections") leaves the wait on the folders before it, not in an error loop.
      if (i === 0 || signal.aborted) throw e;
      session.drop(i);
      break;
    }
    // Mail that arrived between the sync's look at this folder and this SELECT would get no IDLE notice:
    // IDLE only reports what changes after it starts. So what the server has now is compared with what the
    // sync saw.
    if (changedSince(box, opts.seen?.(path) ?? null)) return;
    clients.push(client);
  }
  if (signal.aborted) return;
  const events = ['exists', 'expunge', 'flags', 'close'] as const;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let done = () => {};
  let over = false;
  try {
    await new Promise<void>((resolve, reject) => {
      done = resolve;
      // An IDLE can end with no news while the wait is still on: the server may end it (RFC 2177 allows that),
      // and imapflow's keepalive NOOP ends it when the restart at half the socket timeout came late (a busy
      // machine). A connection left out of IDLE hears nothing and is closed at the next socket timeout, so the
      // IDLE is started again; not after a failed one (false), which would only be refused again, nor while
      // another IDLE runs there, nor with no folder selected (the sync that follows the wait sorts that out).
      const keepIdling = (client: ImapFlow) =>
        client.idle().then((ok) => {
          if (over || ok === false || client.idling) return;
          if (!client.usable || !client.mailbox) done();
          else keepIdling(client);
        }, reject);
      signal.addEventListener('abort', done, { once: true });
      for (const client of clients) {
        // A connection that dropped while the next one was opening has no 'close' left to report.
        if (!client.usable) done();
        for (const e of events) client.on(e, done);
        keepIdling(client);
      }
      timer = setTimeout(done, opts.maxWaitMs ?? 5 * 60_000);
    });
  } finally {
    over = true;
    clearTimeout(timer);
    signal.removeEventListener('abort', done);
    for (const client of clients) for (const e of events) client.off(e, done);
  }
}
