import { useEffect, useRef } from 'react';
import { mailPresets } from '../../../shared/mail-account.ts';
import { VaultNote } from '../services/VaultNote.tsx';
import { TextField } from '../settings/TextField.tsx';
import { useAccountsStore } from '../stores/accounts-store.ts';
import {
  type AccountDraft,
  appPasswordHelp,
  type Discovered,
  draftRequest,
  isOAuth,
  isPresetKey,
  isSignInMethod,
  methodLabels,
  oauthMethods,
  presetKeys,
  type SettingName,
  signInLabel,
  signInRequest,
  tlsLabels,
  uncheckedSettings,
} from './account-form.ts';
import { ServerFields } from './ServerFields.tsx';
import { SignInWait } from './SignInWait.tsx';

// "Add account", as Thunderbird and Apple Mail ask it: the address first; Skimmer looks up the settings
// (`account:discover`) and shows each with where it came from, editable, before anything logs in. A password
// account is saved (which does not connect); one whose provider signs people in (OAuth) is signed in in the
// browser. Either way the long-running app then starts its background sync, whose status shows in the list.
export function AddAccountForm() {
  const step = useAccountsStore((state) => state.draft.step);
  const box = useRef<HTMLDivElement>(null);
  const shown = useRef(step);
  // The step the person moves to takes the keyboard at its first thing to do: the address, a setting to check,
  // the client id or password (by hand: the provider). Not when the dialog opens, which would scroll the list away.
  useEffect(() => {
    if (shown.current === step) return;
    shown.current = step;
    const first =
      step === 'address'
        ? '[data-testid="account-address"]'
        : '[data-testid="account-preset"], [data-testid="account-source-check"]:not(:checked), [data-testid="account-client-id"], [data-testid="account-password"]';
    box.current?.querySelector<HTMLElement>(first)?.focus();
  }, [step]);
  return <div ref={box}>{step === 'address' ? <AddressStep /> : <SettingsStep />}</div>;
}

function AddedNote() {
  const added = useAccountsStore((state) => state.added);
  if (!added) return null;
  return (
    <p className="saved-note" role="status" data-testid="account-saved">
      {added.auth === 'oauth2' ? 'Signed in' : 'Saved'} “{added.name}”. Skimmer starts syncing it in the
      background; its status shows above.
    </p>
  );
}

function AddressStep() {
  const address = useAccountsStore((state) => state.draft.address);
  const discovering = useAccountsStore((state) => state.discovering);
  const error = useAccountsStore((state) => state.discoverError);
  const setDraft = useAccountsStore((state) => state.setDraft);
  const discover = useAccountsStore((state) => state.discover);
  const setUpByHand = useAccountsStore((state) => state.setUpByHand);
  const stopDiscover = useAccountsStore((state) => state.stopDiscover);
  return (
    <form
      className="add-form"
      data-testid="account-form"
      data-step="address"
      aria-label="Add account"
      onSubmit={(event) => {
        event.preventDefault();
        void discover();
      }}
    >
      <h3>Add account</h3>
      <div className="form-grid account-address-grid">
        <TextField
          label="Email address"
          testId="account-address"
          value={address}
          placeholder="you@example.com"
          inputMode="email"
          wide
          onChange={(value) => setDraft({ address: value })}
        />
        <p className="muted wide account-hint">
          Skimmer looks up your provider’s settings from the address and shows them to you before anything
          logs in.
        </p>
      </div>
      {error && (
        <p className="warning" role="alert" data-testid="account-discover-error">
          {error}
        </p>
      )}
      <AddedNote />
      <div className="dialog-actions">
        <button type="button" className="ghost" data-testid="account-by-hand" onClick={setUpByHand}>
          Set up by hand
        </button>
        {discovering && (
          <button type="button" className="ghost" data-testid="account-discover-stop" onClick={stopDiscover}>
            Stop
          </button>
        )}
        <button type="submit" className="primary" data-testid="account-continue" disabled={discovering}>
          {discovering ? 'Looking up the settings…' : 'Continue'}
        </button>
      </div>
    </form>
  );
}

const settingLabels: Record<SettingName, string> = {
  imap: 'Incoming mail (IMAP)',
  smtp: 'Outgoing mail (SMTP)',
  auth: 'Sign-in',
};

// What discovery found for one setting, as it found it (the fields below may have been edited since).
function foundValue(found: Discovered, setting: SettingName): string {
  const { settings } = found;
  if (setting === 'auth') {
    if (settings.auth === 'password') return 'with a password';
    if (settings.oauthPreset) return `with ${methodLabels[settings.oauthPreset]}`;
    return settings.oauthIssuer ? `at ${settings.oauthIssuer}` : 'at the provider';
  }
  const server = setting === 'imap' ? settings.imap : settings.smtp;
  return server ? `${server.host}:${server.port} · ${tlsLabels[server.tls]}` : 'none found';
}

// Where each setting came from, the ones Skimmer could not vouch for marked and waiting for the person's tick,
// and the discovery's warnings. Every string here is a server's or a DNS answer's: React text only.
function FoundSettings({ draft, found }: { draft: AccountDraft; found: Discovered }) {
  const setChecked = useAccountsStore((state) => state.setChecked);
  const domain = draft.address.trim().split('@')[1] ?? draft.address.trim();
  return (
    <section className="found-settings" data-testid="account-found" aria-label="Settings found">
      <p className="found-title">Found for {domain}:</p>
      <ul className="found-list">
        {found.sources.map((source) => {
          const checked = draft.checked.includes(source.setting);
          return (
            <li
              key={source.setting}
              className={source.verified ? 'found-source' : 'found-source unverified'}
              data-testid="account-source"
              data-setting={source.setting}
              data-verified={source.verified}
            >
              <div className="found-head">
                <span className="found-what">{settingLabels[source.setting]}</span>
                <span className="found-value">{foundValue(found, source.setting)}</span>
                {source.verified ? (
                  <span className="found-badge ok">Verified</span>
                ) : checked ? (
                  <span className="found-badge checked">Not verified · checked by you</span>
                ) : (
                  <span className="found-badge unverified">Not verified: check it</span>
                )}
              </div>
              <div className="found-from">
                from {source.from}: <span className="found-detail">{source.detail}</span>
              </div>
              {!source.verified && (
                <label className="check found-check">
                  <input
                    type="checkbox"
                    data-testid="account-source-check"
                    checked={checked}
                    onChange={(event) => setChecked(source.setting, event.target.checked)}
                  />
                  <span>I checked it: this is my provider’s</span>
                </label>
              )}
            </li>
          );
        })}
      </ul>
      {found.warnings.length > 0 && (
        <ul className="found-warnings" data-testid="account-found-warnings">
          {found.warnings.map((warning) => (
            <li key={warning}>{warning}</li>
          ))}
        </ul>
      )}
    </section>
  );
}

function SettingsStep() {
  const draft = useAccountsStore((state) => state.draft);
  const adding = useAccountsStore((state) => state.adding);
  const error = useAccountsStore((state) => state.addError);
  const signIn = useAccountsStore((state) => state.signIn);
  const setDraft = useAccountsStore((state) => state.setDraft);
  const setServer = useAccountsStore((state) => state.setServer);
  const choosePreset = useAccountsStore((state) => state.choosePreset);
  const chooseMethod = useAccountsStore((state) => state.chooseMethod);
  const backToAddress = useAccountsStore((state) => state.backToAddress);
  const add = useAccountsStore((state) => state.add);
  const startSignIn = useAccountsStore((state) => state.startSignIn);
  const cancelSignIn = useAccountsStore((state) => state.cancelSignIn);
  const reopenSignIn = useAccountsStore((state) => state.reopenSignIn);
  const oauth = isOAuth(draft);
  const builtIn = useAccountsStore((state) => state.builtInClients.includes(draft.method));
  const verdict = oauth ? signInRequest(draft) : draftRequest(draft);
  const unchecked = uncheckedSettings(draft);
  const hint = !oauth && draft.preset !== 'custom' ? appPasswordHelp[draft.preset] : null;

  return (
    <form
      className="add-form"
      data-testid="account-form"
      data-step="settings"
      aria-label="Add account"
      onSubmit={(event) => {
        event.preventDefault();
        void (oauth ? startSignIn() : add());
      }}
    >
      <h3>Add account</h3>
      <div className="account-for">
        {draft.address.trim() ? (
          <span>
            Settings for <strong>{draft.address.trim()}</strong>
            {!draft.found && ', typed by hand'}
          </span>
        ) : (
          <span>Settings typed by hand</span>
        )}
        <button
          type="button"
          className="ghost"
          data-testid="account-back"
          disabled={signIn !== null}
          onClick={backToAddress}
        >
          Change address
        </button>
      </div>
      {draft.found && <FoundSettings draft={draft} found={draft.found} />}
      {signIn ? (
        <SignInWait
          signIn={signIn}
          testId="account-signin-wait"
          onCancel={() => void cancelSignIn(null)}
          onReopen={reopenSignIn}
        />
      ) : (
        <div className="form-grid account-form-grid">
          {!draft.found && (
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
          )}
          <label className="field">
            <span>Sign in with</span>
            <select
              data-testid="account-method"
              value={draft.method}
              onChange={(event) => {
                if (isSignInMethod(event.target.value)) chooseMethod(event.target.value);
              }}
            >
              <option value="password">{methodLabels.password}</option>
              {oauthMethods.map((method) => (
                <option key={method} value={method}>
                  {methodLabels[method]}
                </option>
              ))}
              <option value="issuer">{methodLabels.issuer}</option>
            </select>
          </label>
          {draft.method === 'issuer' && (
            <TextField
              label="Sign-in server (issuer)"
              testId="account-issuer"
              value={draft.issuer}
              placeholder="https://sso.example.com"
              onChange={(issuer) => setDraft({ issuer })}
            />
          )}
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
          {oauth ? (
            <>
              <TextField
                label={builtIn ? 'Your own client ID (optional)' : 'Client ID'}
                testId="account-client-id"
                value={draft.clientId}
                onChange={(clientId) => setDraft({ clientId })}
              />
              <TextField
                label="Client secret (optional)"
                type="password"
                testId="account-client-secret"
                value={draft.clientSecret}
                onChange={(clientSecret) => setDraft({ clientSecret })}
              />
              {builtIn ? (
                <p className="muted wide account-hint" data-testid="account-client-hint">
                  This copy of Skimmer brings its own client for this provider: leave these empty to use it,
                  or give the id of a client you registered yourself.
                </p>
              ) : (
                <p className="muted wide account-hint" data-testid="account-client-hint">
                  Skimmer ships no client id of its own: register Skimmer once as a desktop app with your
                  provider and paste its client id here (Google’s desktop clients also give a client secret).
                  The README’s “Signing in with Google, Microsoft…” says how, step by step.
                </p>
              )}
            </>
          ) : (
            <>
              <TextField
                label="Password or app password"
                type="password"
                testId="account-password"
                value={draft.password}
                onChange={(password) => setDraft({ password })}
              />
              {hint && (
                <p className="muted wide account-hint" data-testid="account-password-hint">
                  {hint}
                </p>
              )}
            </>
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
      )}
      {error && (
        <p className="warning" role="alert" data-testid="account-form-error">
          {error}
        </p>
      )}
      {!signIn && (
        <div className="dialog-actions account-actions">
          {!verdict.ok && (unchecked.length > 0 || oauth) && (
            <span className="muted account-blocked" data-testid="account-blocked">
              {verdict.reason}
            </span>
          )}
          <button
            type="submit"
            className="primary"
            data-testid={oauth ? 'account-signin' : 'account-save'}
            disabled={adding || unchecked.length > 0 || (oauth && !verdict.ok)}
          >
            {adding ? 'Saving…' : signInLabel(draft)}
          </button>
        </div>
      )}
    </form>
  );
}
