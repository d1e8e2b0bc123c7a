import type { AccountView } from '../../../shared/contract/index.ts';
import { formatFullDate } from '../format/format-time.ts';
import { RemoveConfirm } from '../settings/RemoveConfirm.tsx';
import { TestButton, TestResultNote } from '../settings/TestButton.tsx';
import { isRunBusy, type SyncRun, useAccountsStore } from '../stores/accounts-store.ts';
import { tlsLabels } from './account-form.ts';
import { progressText, statusLine } from './account-status.ts';
import { SignInWait } from './SignInWait.tsx';

function runText(run: SyncRun): string {
  switch (run.status) {
    case 'starting':
      return 'Starting the sync…';
    case 'running':
      return run.progress ? progressText(run.progress) : 'Syncing…';
    case 'stopping':
      return 'Stopping…';
    case 'done': {
      const added = run.summary?.added ?? 0;
      return `Synced: ${added === 0 ? 'no new messages' : `${added.toLocaleString()} new`}.`;
    }
    case 'failed':
      return run.message ?? 'The sync failed.';
    case 'stopped':
      return 'Stopped. What was synced so far is kept.';
  }
}

// One saved account: who it logs in as and where, whether a password is saved (never the password), how its
// sync stands, and its actions. "Test" and "Sync now" connect to the server, and only when pressed.
export function AccountRow({ account }: { account: AccountView }) {
  const live = useAccountsStore((state) => state.live[account.id] ?? null);
  const now = useAccountsStore((state) => state.now);
  const run = useAccountsStore((state) => state.runs[account.id]);
  const test = useAccountsStore((state) => state.tests[account.id]);
  const confirming = useAccountsStore((state) => state.confirmRemove === account.id);
  const removing = useAccountsStore((state) => state.removing);
  const error = useAccountsStore((state) => state.rowErrors[account.id]);
  const testAccount = useAccountsStore((state) => state.test);
  const syncNow = useAccountsStore((state) => state.syncNow);
  const stopSync = useAccountsStore((state) => state.stopSync);
  const askRemove = useAccountsStore((state) => state.askRemove);
  const cancelRemove = useAccountsStore((state) => state.cancelRemove);
  const remove = useAccountsStore((state) => state.remove);
  const signIn = useAccountsStore((state) => state.signIns[account.id] ?? null);
  const signInAgain = useAccountsStore((state) => state.signInAgain);
  const cancelSignIn = useAccountsStore((state) => state.cancelSignIn);
  const reopenSignIn = useAccountsStore((state) => state.reopenSignIn);
  // A refused sign-in pauses the sync, whatever the last live status said (an IDLE that has not noticed yet).
  const status: ReturnType<typeof statusLine> = account.needsSignIn
    ? { text: 'Paused until you sign in again', tone: 'warning' }
    : statusLine(account, live, now, formatFullDate);
  const busy = isRunBusy(run);
  const { imap, smtp } = account;

  return (
    <li
      className="saved-row"
      data-testid="account-row"
      data-account-id={account.id}
      data-account-name={account.name}
    >
      <div className="saved-row-head">
        <strong className="saved-row-name">{account.name}</strong>
        <span className="account-user">{account.user}</span>
        {account.auth === 'oauth2' ? (
          <span
            className={account.needsSignIn ? 'key-badge needs-signin' : 'key-badge saved'}
            data-testid="account-signed-in"
          >
            {account.needsSignIn ? 'Needs signing in again' : 'Signed in with the provider'}
          </span>
        ) : (
          <span
            className={account.hasPassword ? 'key-badge saved' : 'key-badge'}
            data-testid="account-password-saved"
          >
            {account.hasPassword ? 'Password saved' : 'No password'}
          </span>
        )}
      </div>
      <div className="account-servers" data-testid="account-servers">
        <span>
          IMAP <code>{`${imap.host}:${imap.port}`}</code> · {tlsLabels[imap.tls]}
        </span>
        <span>
          {smtp ? (
            <>
              SMTP <code>{`${smtp.host}:${smtp.port}`}</code> · {tlsLabels[smtp.tls]}
            </>
          ) : (
            'No SMTP server: Skimmer cannot send from this account'
          )}
        </span>
      </div>
      <p
        className={`account-status tone-${status.tone}`}
        role="status"
        data-testid="account-status"
        data-state={live?.status.state ?? 'none'}
      >
        {status.text}
      </p>
      {live && (
        <p className="account-record muted" data-testid="account-record">
          {account.lastError
            ? `Last error: ${account.lastError}`
            : account.syncedAt !== null
              ? `Last synced ${formatFullDate(account.syncedAt)}`
              : 'Not synced yet'}
        </p>
      )}
      {run && (
        <p
          className={run.status === 'failed' ? 'warning account-run' : 'muted account-run'}
          data-testid="account-sync-run"
        >
          {runText(run)}
        </p>
      )}
      {account.needsSignIn && !signIn && (
        <p className="warning account-signin-again" data-testid="account-needs-signin">
          The provider refused the saved sign-in (it was revoked, expired or the password changed): sync and
          sending wait until you sign in again. Everything synced so far is kept.
        </p>
      )}
      {signIn && (
        <SignInWait
          signIn={signIn}
          testId="account-row-signin-wait"
          onCancel={() => void cancelSignIn(account.id)}
          onReopen={reopenSignIn}
        />
      )}
      {confirming ? (
        <RemoveConfirm
          name={account.name}
          testId="account-remove-confirm"
          removing={removing}
          onCancel={cancelRemove}
          onRemove={() => void remove()}
        >
          Remove “{account.name}”, its saved password and the mail Skimmer copied from it? The mail stays on
          the server.
        </RemoveConfirm>
      ) : (
        <div className="saved-row-actions">
          {account.needsSignIn && (
            <button
              type="button"
              className="primary"
              data-testid="account-signin-again"
              disabled={signIn !== null}
              onClick={() => void signInAgain(account.id)}
            >
              Sign in again
            </button>
          )}
          <TestButton
            testId="account-test"
            label="Test"
            test={test}
            onTest={() => void testAccount(account.id)}
          />
          {busy ? (
            <button
              type="button"
              data-testid="account-sync-stop"
              disabled={run?.status === 'stopping'}
              onClick={() => void stopSync(account.id)}
            >
              Stop
            </button>
          ) : (
            <button type="button" data-testid="account-sync" onClick={() => void syncNow(account.id)}>
              Sync now
            </button>
          )}
          <button type="button" data-testid="account-remove" onClick={() => askRemove(account.id)}>
            Remove
          </button>
        </div>
      )}
      <TestResultNote testId="account-test-result" test={test} />
      {error && (
        <p className="warning" role="alert" data-testid="account-row-error">
          {error}
        </p>
      )}
    </li>
  );
}
