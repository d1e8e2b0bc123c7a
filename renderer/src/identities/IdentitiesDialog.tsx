import { AddForm } from '../settings/AddForm.tsx';
import { SavedListDialog } from '../settings/SavedListDialog.tsx';
import { TextField } from '../settings/TextField.tsx';
import { useIdentitiesStore } from '../stores/identities-store.ts';
import { IdentityRow } from './IdentityRow.tsx';
import '../styles/identities.css';

// Settings → Your addresses (issue 16): each account's address and the ones added for imported mail, with a
// name and a signature each. Opening it asks Skimmer for the list and nothing else.
export function IdentitiesDialog() {
  const open = useIdentitiesStore((state) => state.open);
  const identities = useIdentitiesStore((state) => state.identities);
  const loading = useIdentitiesStore((state) => state.loading);
  const listError = useIdentitiesStore((state) => state.listError);
  const onEscape = useIdentitiesStore((state) => state.escape);
  const close = useIdentitiesStore((state) => state.closeDialog);
  if (!open) return null;

  return (
    <SavedListDialog
      title="Your addresses"
      testId="identities"
      intro="The addresses you write from. A reply goes out from the one the mail was sent to, with its name and signature; reply all leaves them all out. Each account’s own address is here while the account is."
      items={identities}
      row={(identity) => <IdentityRow key={identity.address} identity={identity} />}
      listLabel="Your addresses"
      loading={loading}
      loadingText="Loading your addresses…"
      listError={listError}
      emptyText="No addresses yet. Add the address your imported mail was sent to, or add an account."
      onEscape={onEscape}
      onClose={close}
    >
      <AddIdentityForm />
    </SavedListDialog>
  );
}

function AddIdentityForm() {
  const draft = useIdentitiesStore((state) => state.draft);
  const adding = useIdentitiesStore((state) => state.adding);
  const error = useIdentitiesStore((state) => state.addError);
  const added = useIdentitiesStore((state) => state.added);
  const editDraft = useIdentitiesStore((state) => state.editDraft);
  const add = useIdentitiesStore((state) => state.add);

  return (
    <AddForm
      title="Add an address"
      testId="identity"
      error={error}
      saved={added && <>Added {added}. Edit it above to give it a signature.</>}
      adding={adding}
      saveLabel="Add address"
      onSave={() => void add()}
    >
      <div className="form-grid identity-form-grid">
        <TextField
          label="Address"
          testId="identity-address"
          value={draft.address}
          placeholder="you@example.com"
          inputMode="email"
          onChange={(address) => editDraft({ address })}
        />
        <TextField
          label="Name (optional)"
          testId="identity-name"
          value={draft.name}
          placeholder="Your Name"
          onChange={(name) => editDraft({ name })}
        />
      </div>
    </AddForm>
  );
}
