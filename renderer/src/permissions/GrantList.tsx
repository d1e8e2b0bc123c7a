import { formatFullDate } from '../format/format-time.ts';
import { displayText } from '../mail/display-text.ts';
import { usePermissionsStore } from '../stores/permissions-store.ts';
import { grantScopeText } from './audit-text.ts';

// The tools the user allowed from an approval card ("for this conversation", "always"); Revoke makes the
// tool ask again.
export function GrantList() {
  const grants = usePermissionsStore((state) => state.grants);
  const error = usePermissionsStore((state) => state.grantsError);
  const loading = usePermissionsStore((state) => state.loading);
  const revoking = usePermissionsStore((state) => state.revoking);
  const revokeError = usePermissionsStore((state) => state.revokeError);
  const revoke = usePermissionsStore((state) => state.revoke);

  return (
    <section className="permissions-section" aria-label="Allowed without asking">
      <h3>Allowed without asking</h3>
      {error && (
        <p className="warning" role="alert">
          {error}
        </p>
      )}
      {revokeError && (
        <p className="warning" role="alert">
          {revokeError}
        </p>
      )}
      {grants.length === 0 && !error && !loading && (
        <p className="muted" data-testid="grants-empty">
          Nothing: every change to your mail asks first.
        </p>
      )}
      {grants.length > 0 && (
        <ul className="grant-list">
          {grants.map((grant) => (
            <li key={grant.id} className="grant-row" data-testid="grant-row" data-tool={grant.tool}>
              <code className="tool-name">{grant.tool}</code>
              <span className="grant-scope">{displayText(grantScopeText(grant))}</span>
              <time className="muted">{formatFullDate(grant.createdAt)}</time>
              <button
                type="button"
                className="small"
                data-testid="grant-revoke"
                disabled={revoking !== null}
                onClick={() => void revoke(grant.id)}
              >
                {revoking === grant.id ? 'Revoking…' : 'Revoke'}
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
