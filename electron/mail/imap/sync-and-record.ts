// One explicit sync of an account ("Sync now", `skimmer account sync --once`), its outcome remembered on the
// account: when it last synced, or Skimmer's sentence for why it failed. A Stop is not a failure to remember.
import type { Db } from '../../db/open.ts';
import type { Accounts } from '../accounts.ts';
import { readDirectMessage } from '../import/parse.ts';
import { createParsePool } from '../import/parse-pool.ts';
import { mailFailure } from './imap-connect.ts';
import { syncAccount } from './imap-sync.ts';

/** Runs one sync and records its outcome on the account; MailFailure out when it fails. */
export async function syncAndRecord(
  deps: { db: Db; accounts: Accounts },
  id: number,
  opts: Parameters<typeof syncAccount>[2] = {},
) {
  const login = await deps.accounts.login(id);
  // Parsing is most of a first sync's time: it runs on parse threads while the next batch downloads.
  const pool = opts.parse ? null : createParsePool(undefined, { readHere: readDirectMessage });
  try {
    const summary = await syncAccount(deps.db, login, { ...(pool ? { parse: pool.parse } : {}), ...opts });
    deps.accounts.synced(id, Date.now(), null);
    return summary;
  } catch (e) {
    const failure = mailFailure(e, `the mail server ${login.imap.host}`);
    if (failure.code !== 'cancelled') deps.accounts.synced(id, null, failure.message);
    throw failure;
  } finally {
    await pool?.close();
  }
}
