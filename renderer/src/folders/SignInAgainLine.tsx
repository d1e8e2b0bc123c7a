// "Sign in again" where the person reads their mail (issue 28): an account whose provider refused its saved
// sign-in says so under its name in the folder list, with the button that starts the sign-in in a new tab (the
// same sign-in as the Accounts dialog's, from the same store), and while it waits, Cancel.
import { useAccountsStore } from '../stores/accounts-store.ts';

export function SignInAgainLine({ accountId }: { accountId: number | null }) {
  const needs = useAccountsStore(
    (state) => accountId !== null && state.accounts.some((a) => a.id === accountId && a.needsSignIn),
  );
  const waiting = useAccountsStore((state) =>
    accountId === null ? false : state.signIns[accountId] !== undefined,
  );
  const error = useAccountsStore((state) =>
    accountId === null ? null : (state.rowErrors[accountId] ?? null),
  );
  const signInAgain = useAccountsStore((state) => state.signInAgain);
  const cancelSignIn = useAccountsStore((state) => state.cancelSignIn);
  if (accountId === null || !needs) return null;
  return (
    <div className="folder-signin" role="status" data-testid="folder-signin">
      <p>
        {waiting
          ? 'Waiting for the sign-in in your browser…'
          : 'Paused: the provider wants you to sign in again.'}
      </p>
      {error && <p className="warning">{error}</p>}
      {waiting ? (
        <button type="button" className="ghost" onClick={() => void cancelSignIn(accountId)}>
          Cancel
        </button>
      ) : (
        <button
          type="button"
          className="primary"
          data-testid="folder-signin-again"
          onClick={() => void signInAgain(accountId)}
        >
          Sign in again
        </button>
      )}
    </div>
  );
}
