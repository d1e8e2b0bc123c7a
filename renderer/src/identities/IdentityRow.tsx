import { RemoveConfirm } from '../settings/RemoveConfirm.tsx';
import { TextField } from '../settings/TextField.tsx';
import { type Identity, useIdentitiesStore } from '../stores/identities-store.ts';

// One of your addresses: its name and signature, Edit, and Remove (asked first). An account's own address is
// marked with the account and has no Remove: it stays yours while the account does.
export function IdentityRow({ identity }: { identity: Identity }) {
  const editing = useIdentitiesStore((state) =>
    state.editing?.address === identity.address ? state.editing : null,
  );
  const savingEdit = useIdentitiesStore((state) => state.savingEdit);
  const editError = useIdentitiesStore((state) => state.editError);
  const confirming = useIdentitiesStore((state) => state.confirmRemove === identity.address);
  const removing = useIdentitiesStore((state) => state.removing);
  const error = useIdentitiesStore((state) => state.rowErrors[identity.address]);
  const startEdit = useIdentitiesStore((state) => state.startEdit);
  const editField = useIdentitiesStore((state) => state.editField);
  const cancelEdit = useIdentitiesStore((state) => state.cancelEdit);
  const saveEdit = useIdentitiesStore((state) => state.saveEdit);
  const askRemove = useIdentitiesStore((state) => state.askRemove);
  const cancelRemove = useIdentitiesStore((state) => state.cancelRemove);
  const remove = useIdentitiesStore((state) => state.remove);

  return (
    <li className="saved-row" data-testid="identity-row" data-address={identity.address}>
      <div className="saved-row-head">
        <strong className="saved-row-name">{identity.address}</strong>
        {identity.name && <span className="identity-name">{identity.name}</span>}
        {identity.account !== null && (
          <span className="key-badge saved" data-testid="identity-account">
            Account “{identity.account}”
          </span>
        )}
      </div>
      {editing ? (
        <form
          className="identity-edit"
          aria-label={`Edit ${identity.address}`}
          onSubmit={(event) => {
            event.preventDefault();
            void saveEdit();
          }}
        >
          <TextField
            label="Name"
            testId="identity-edit-name"
            value={editing.name}
            onChange={(name) => editField({ name })}
            wide
          />
          <label className="field wide">
            <span>Signature (placed above the quote in a reply)</span>
            <textarea
              data-testid="identity-edit-signature"
              rows={4}
              value={editing.signature}
              spellCheck={false}
              onChange={(event) => editField({ signature: event.target.value })}
            />
          </label>
          {editError && (
            <p className="warning" role="alert" data-testid="identity-edit-error">
              {editError}
            </p>
          )}
          <div className="saved-row-actions">
            <button type="button" onClick={cancelEdit} disabled={savingEdit}>
              Cancel
            </button>
            <button type="submit" className="primary" data-testid="identity-edit-save" disabled={savingEdit}>
              {savingEdit ? 'Saving…' : 'Save'}
            </button>
          </div>
        </form>
      ) : (
        identity.signature && (
          <pre className="identity-signature" data-testid="identity-signature">
            {identity.signature}
          </pre>
        )
      )}
      {error && (
        <p className="warning" role="alert" data-testid="identity-row-error">
          {error}
        </p>
      )}
      {confirming ? (
        <RemoveConfirm
          name={identity.address}
          testId="identity-remove-confirm"
          removing={removing}
          onCancel={cancelRemove}
          onRemove={() => void remove()}
        >
          Remove {identity.address} from your addresses? Its name and signature go with it; no mail is
          touched.
        </RemoveConfirm>
      ) : (
        !editing && (
          <div className="saved-row-actions">
            <button type="button" data-testid="identity-edit" onClick={() => startEdit(identity.address)}>
              Edit
            </button>
            {identity.account === null && (
              <button
                type="button"
                className="danger"
                data-testid="identity-remove"
                onClick={() => askRemove(identity.address)}
              >
                Remove
              </button>
            )}
          </div>
        )
      )}
    </li>
  );
}
