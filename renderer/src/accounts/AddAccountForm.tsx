import { mailPresets } from '../../../shared/mail-account.ts';
import { VaultNote } from '../services/VaultNote.tsx';
import { useAccountsStore } from '../stores/accounts-store.ts';
import { isPresetKey, presetKeys } from './account-form.ts';
import { ServerFields } from './ServerFields.tsx';

// "Add account": saving checks the settings in Skimmer and stores the password in its vault; it does not
// connect. The long-running app then starts the account's background sync, whose status shows in the list.
export function AddAccountForm() {
  const draft = useAccountsStore((state) => state.draft);
  const adding = useAccountsStore((state) => state.adding);
  const error = useAccountsStore((state) => state.addError);
  const added = useAccountsStore((state) => state.added);
  const setDraft = useAccountsStore((state) => state.setDraft);
  const setServer = useAccountsStore((state) => state.setServer);
  const choosePreset = useAccountsStore((state) => state.choosePreset);
  const add = useAccountsStore((state) => state.add);

  return (
    <form
      className="account-form"
      data-testid="account-form"
      aria-label="Add account"
      onSubmit={(event) => {
        event.preventDefault();
        void add();
      }}
    >
      <h3>Add account</h3>
      <div className="account-form-grid">
        <label className="field">
          <span>Provider</span>
          <select
            data-testid="account-preset"
            value={draft.preset}
            onChange={(event) => {
              const value = event.target.value;
              choosePreset(isPresetKey(value) ? value : 'custom');
            }}
          >
            <option value="custom">Other (type the servers)</option>
            {presetKeys.map((key) => (
              <option key={key} value={key}>
                {mailPresets[key].label}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          <span>Name (optional)</span>
          <input
            data-testid="account-name"
            value={draft.name}
            placeholder={draft.user.trim() || 'work'}
            autoComplete="off"
            spellCheck={false}
            onChange={(event) => setDraft({ name: event.target.value })}
          />
        </label>
        <label className="field">
          <span>User name</span>
          <input
            data-testid="account-user"
            value={draft.user}
            placeholder="you@example.com"
            autoComplete="off"
            spellCheck={false}
            onChange={(event) => setDraft({ user: event.target.value })}
          />
        </label>
        <label className="field">
          <span>Password or app password</span>
          <input
            type="password"
            data-testid="account-password"
            value={draft.password}
            autoComplete="off"
            spellCheck={false}
            onChange={(event) => setDraft({ password: event.target.value })}
          />
        </label>
        {draft.preset !== 'custom' && (
          <p className="muted wide account-hint">
            {mailPresets[draft.preset].label} usually wants an app password here, made in its account security
            settings, rather than the password you sign in with.
          </p>
        )}
        <div className="wide">
          <ServerFields
            kind="IMAP"
            server={draft.imap}
            onChange={(server) => setServer('imap', server)}
            saveError={error}
          />
        </div>
        <label className="check wide">
          <input
            type="checkbox"
            data-testid="account-smtp-on"
            checked={draft.smtpOn}
            onChange={(event) => setDraft({ smtpOn: event.target.checked })}
          />
          <span>Send mail through this account (SMTP)</span>
        </label>
        {draft.smtpOn && (
          <div className="wide">
            <ServerFields
              kind="SMTP"
              server={draft.smtp}
              onChange={(server) => setServer('smtp', server)}
              saveError={error}
            />
          </div>
        )}
        <div className="wide">
          <VaultNote />
        </div>
      </div>
      {error && (
        <p className="warning" role="alert" data-testid="account-form-error">
          {error}
        </p>
      )}
      {added && !error && (
        <p className="saved-note" role="status" data-testid="account-saved">
          Saved “{added.name}”. Skimmer starts syncing it in the background; its status shows above.
        </p>
      )}
      <div className="dialog-actions">
        <button type="submit" className="primary" data-testid="account-save" disabled={adding}>
          {adding ? 'Saving…' : 'Save account'}
        </button>
      </div>
    </form>
  );
}
