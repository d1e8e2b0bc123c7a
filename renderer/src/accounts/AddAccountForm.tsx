import { mailPresets } from '../../../shared/mail-account.ts';
import { VaultNote } from '../services/VaultNote.tsx';
import { AddForm } from '../settings/AddForm.tsx';
import { TextField } from '../settings/TextField.tsx';
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
    <AddForm
      title="Add account"
      testId="account"
      error={error}
      saved={
        added && (
          <>Saved “{added.name}”. Skimmer starts syncing it in the background; its status shows above.</>
        )
      }
      adding={adding}
      saveLabel="Save account"
      onSave={() => void add()}
    >
      <div className="form-grid account-form-grid">
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
        <TextField
          label="Name (optional)"
          testId="account-name"
          value={draft.name}
          placeholder={draft.user.trim() || 'work'}
          onChange={(name) => setDraft({ name })}
        />
        <TextField
          label="User name"
          testId="account-user"
          value={draft.user}
          placeholder="you@example.com"
          onChange={(user) => setDraft({ user })}
        />
        <TextField
          label="Password or app password"
          type="password"
          testId="account-password"
          value={draft.password}
          onChange={(password) => setDraft({ password })}
        />
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
    </AddForm>
  );
}
