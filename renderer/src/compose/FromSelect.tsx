import { displayText } from '../mail/display-text.ts';
import { useComposeStore } from '../stores/compose-store.ts';

// From: one of your addresses (identity:list). Changing it swaps the signature too, while the old one stands
// unedited in the body (signature-swap.ts). With no address of yours known, the sending account's own is used.
export function FromSelect() {
  const identities = useComposeStore((state) => state.identities);
  const fromAddress = useComposeStore((state) => state.form?.fromAddress ?? null);
  const accountFrom = useComposeStore((state) => state.accountFrom);
  const setFrom = useComposeStore((state) => state.setFrom);
  // No chosen From: the account's own address, which is one of yours too.
  const value = fromAddress ?? accountFrom ?? '';
  const known = identities.some((i) => i.address === value);

  if (identities.length === 0) {
    return (
      <div className="compose-row">
        <span className="compose-label">From</span>
        <span className="compose-from muted" data-testid="composer-from-text">
          {accountFrom ? displayText(accountFrom) : 'The address of the account that sends it'}
        </span>
      </div>
    );
  }
  return (
    <div className="compose-row">
      <label className="compose-label" htmlFor="composer-from">
        From
      </label>
      <select
        id="composer-from"
        data-testid="composer-from"
        className="compose-from"
        value={value}
        onChange={(event) => setFrom(event.target.value === '' ? null : event.target.value)}
      >
        {fromAddress === null && (
          <option value="">
            {accountFrom
              ? `${displayText(accountFrom)} (the account’s own)`
              : 'The sending account’s own address'}
          </option>
        )}
        {fromAddress !== null && !known && <option value={fromAddress}>{displayText(fromAddress)}</option>}
        {identities.map((identity) => (
          <option key={identity.address} value={identity.address}>
            {identity.name
              ? `${displayText(identity.name)} <${displayText(identity.address)}>`
              : displayText(identity.address)}
          </option>
        ))}
      </select>
    </div>
  );
}
