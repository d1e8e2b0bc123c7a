// One sync of an account in a process of its own, for a test that kills it mid-way (test/imap-first-sync.test.ts):
// the database file and the login come in SKIMMER_SYNC_ONCE (JSON; a test Dovecot's password, never a real one),
// and "batch" is printed on stdout after each committed batch, so the test can SIGKILL the process right then.
import { openDatabase } from '../../electron/db/open.ts';
import type { AccountLogin } from '../../electron/mail/accounts.ts';
import { syncAccount } from '../../electron/mail/imap/imap-sync.ts';

const { dbFile, login } = JSON.parse(process.env.SKIMMER_SYNC_ONCE ?? '{}') as {
  dbFile: string;
  login: AccountLogin;
};
const db = openDatabase(dbFile, { batches: true });
await syncAccount(db, login, { onBatch: () => process.stdout.write('batch\n') });
db.close();
process.stdout.write('done\n');
