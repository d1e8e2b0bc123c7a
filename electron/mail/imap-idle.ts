// Waiting for new mail (issue 5): a connection of its own selects one folder (the one the user has open, else
// INBOX) and IDLEs (RFC 2177) until the server reports a new, removed or changed message, or until
// `maxWaitMs` (servers end IDLE after about 30 minutes; we return sooner so the other folders are looked at
// too). Closing the connection ends the wait.
import type { AccountLogin } from './accounts.ts';
import { imapClient } from './imap-connect.ts';

/** What the last sync saw of a folder when it opened it. */
export type FolderSeen = { uidNext: number; exists: number };

export async function waitForChange(
  login: AccountLogin,
  signal: AbortSignal,
  opts: { path: string; maxWaitMs?: number; seen?: () => FolderSeen | null },
): Promise<void> {
  const client = imapClient(login);
  client.on('error', () => {});
  let timer: ReturnType<typeof setTimeout> | undefined;
  const stop = () => client.close();
  signal.addEventListener('abort', stop, { once: true });
  try {
    if (signal.aborted) return;
    await client.connect();
    const box = await client.mailboxOpen(opts.path, { readOnly: true });
    // Mail that arrived between the sync's look at this folder and this SELECT would get no IDLE notice: IDLE
    // only reports what changes after it starts. So what the server has now is compared with what the sync saw.
    const before = opts.seen?.();
    if (before && (box.uidNext !== before.uidNext || box.exists !== before.exists)) return;
    await new Promise<void>((resolve, reject) => {
      const done = () => resolve();
      client.on('exists', done);
      client.on('expunge', done);
      client.on('flags', done);
      client.on('close', done);
      timer = setTimeout(done, opts.maxWaitMs ?? 5 * 60_000);
      client.idle().catch(reject);
    });
  } finally {
    clearTimeout(timer);
    signal.removeEventListener('abort', stop);
    client.close();
  }
}
