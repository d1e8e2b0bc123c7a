import type { SignIn } from '../stores/accounts-store.ts';

// While a sign-in runs at the provider: what the person does now (in the browser), a way to open the page again
// when no tab came up, and Cancel. The provider's address is never shown as a link to follow from here: the
// button opens exactly the address Skimmer started the sign-in with.
export function SignInWait({
  signIn,
  testId,
  onCancel,
  onReopen,
}: {
  signIn: SignIn;
  testId: string;
  onCancel(): void;
  onReopen(url: string): void;
}) {
  const { status, authorizeUrl, opened } = signIn;
  return (
    <div className="signin-wait" role="status" data-testid={testId} data-state={status}>
      <p className="signin-wait-line">
        <span className="signin-spinner" aria-hidden="true" />
        {status === 'starting'
          ? 'Opening the sign-in page…'
          : status === 'cancelling'
            ? 'Cancelling…'
            : 'Waiting for you to sign in in your browser…'}
      </p>
      {status === 'waiting' && (
        <p className="muted signin-wait-hint">
          {opened
            ? 'Skimmer opened your provider’s sign-in page in your browser.'
            : 'Your provider’s sign-in page opened in a new tab.'}{' '}
          Sign in there and allow access to your mail; once it says you can close the tab, the account appears
          here and its mail starts to arrive.
        </p>
      )}
      <div className="signin-wait-actions">
        {authorizeUrl && status === 'waiting' && (
          <button type="button" data-testid={`${testId}-reopen`} onClick={() => onReopen(authorizeUrl)}>
            Open the sign-in page again
          </button>
        )}
        <button
          type="button"
          data-testid={`${testId}-cancel`}
          disabled={status === 'cancelling'}
          onClick={onCancel}
        >
          Cancel
        </button>
      </div>
    </div>
  );
}
