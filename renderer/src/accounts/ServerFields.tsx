import type { TlsMode } from '../../../shared/mail-account.ts';
import {
  type ServerDraft,
  type ServerKind,
  serverVerdict,
  tlsLabels,
  tlsModes,
  withTls,
} from './account-form.ts';

const legends: Record<ServerKind, string> = {
  IMAP: 'Incoming mail (IMAP)',
  SMTP: 'Outgoing mail (SMTP)',
};

const isTlsMode = (value: string): value is TlsMode => (tlsModes as readonly string[]).includes(value);

// Host, port and TLS of one server, and the verdict of the rule Skimmer applies when it saves (plaintext only
// on this computer), shown while typing. `saveError` is Skimmer's sentence from Save; the verdict does not
// repeat it.
export function ServerFields({
  kind,
  server,
  onChange,
  saveError,
}: {
  kind: ServerKind;
  server: ServerDraft;
  onChange(server: ServerDraft): void;
  saveError: string | null;
}) {
  const id = kind.toLowerCase();
  const verdict = serverVerdict(kind, server);
  return (
    <fieldset className="server-fields" data-testid={`account-${id}-fields`}>
      <legend>{legends[kind]}</legend>
      <label className="field server-host">
        <span>Host</span>
        <input
          data-testid={`account-${id}-host`}
          value={server.host}
          placeholder={kind === 'IMAP' ? 'imap.example.com' : 'smtp.example.com'}
          autoComplete="off"
          spellCheck={false}
          onChange={(event) => onChange({ ...server, host: event.target.value })}
        />
      </label>
      <label className="field server-port">
        <span>Port</span>
        <input
          data-testid={`account-${id}-port`}
          value={server.port}
          inputMode="numeric"
          autoComplete="off"
          onChange={(event) => onChange({ ...server, port: event.target.value })}
        />
      </label>
      <label className="field server-tls">
        <span>Security</span>
        <select
          data-testid={`account-${id}-tls`}
          value={server.tls}
          onChange={(event) => {
            if (isTlsMode(event.target.value)) onChange(withTls(kind, server, event.target.value));
          }}
        >
          {tlsModes.map((mode) => (
            <option key={mode} value={mode}>
              {tlsLabels[mode]}
            </option>
          ))}
        </select>
      </label>
      <p className="server-verdict" data-testid={`account-${id}-verdict`} aria-live="polite">
        {verdict?.ok === true && (
          <span className="muted">
            {verdict.value.tls === 'none'
              ? `Without TLS: allowed only because ${verdict.value.host} is this computer.`
              : `Connects to ${verdict.value.host}:${verdict.value.port} with ${tlsLabels[verdict.value.tls]}.`}
          </span>
        )}
        {verdict?.ok === false && verdict.reason !== saveError && (
          <span className="hint-problem">{verdict.reason}</span>
        )}
      </p>
    </fieldset>
  );
}
