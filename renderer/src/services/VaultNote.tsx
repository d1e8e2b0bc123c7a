import { useAppStore } from '../stores/app-store.ts';

// How saved keys are protected on this computer, in Skimmer's own words (DESIGN §4); a key that would not
// be encrypted is said plainly.
export function VaultNote() {
  const vault = useAppStore((state) => state.info?.vault);
  if (!vault) return null;
  return (
    <p
      className={vault.protection === 'not-encrypted' ? 'warning vault-note' : 'muted vault-note'}
      data-testid="service-vault"
    >
      {vault.message}
    </p>
  );
}
