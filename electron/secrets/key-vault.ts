// KeyVault (DESIGN §4): secrets are sealed by a backend and only the ciphertext reaches SQLite. A key is
// written once and read only by whoever sends it (the transport, in later issues); it is never returned
// over the bridge, logged or put in an error. The table is owned here.
import type { VaultInfo } from '../../shared/contract/index.ts';
import type { Db } from '../db/open.ts';

export type Sealer = {
  readonly info: VaultInfo;
  seal(plaintext: string): Promise<Buffer>;
  open(ciphertext: Buffer): Promise<string>;
};

export type KeyVault = {
  readonly info: VaultInfo;
  set(name: string, secret: string): Promise<void>;
  get(name: string): Promise<string | null>;
  has(name: string): boolean;
  remove(name: string): void;
  /** Every secret this backend can open, for masking them by value where text is stored or shown; never returned. */
  values(): Promise<string[]>;
};

export function createKeyVault(db: Db, sealer: Sealer, now: () => number = Date.now): KeyVault {
  const upsert = db.prepare<[string, string, string, Buffer, number]>(
    `INSERT INTO secrets (name, backend, protection, ciphertext, updated_at) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (name) DO UPDATE SET backend = excluded.backend, protection = excluded.protection,
       ciphertext = excluded.ciphertext, updated_at = excluded.updated_at`,
  );
  const read = db.prepare<[string], { backend: string; ciphertext: Buffer }>(
    'SELECT backend, ciphertext FROM secrets WHERE name = ?',
  );
  const exists = db.prepare<[string]>('SELECT 1 FROM secrets WHERE name = ?').pluck();
  const del = db.prepare<[string]>('DELETE FROM secrets WHERE name = ?');
  const all = db.prepare<[string], { ciphertext: Buffer }>(
    'SELECT ciphertext FROM secrets WHERE backend = ?',
  );
  return {
    info: sealer.info,
    async set(name, secret) {
      upsert.run(name, sealer.info.backend, sealer.info.protection, await sealer.seal(secret), now());
    },
    async get(name) {
      const row = read.get(name);
      if (!row) return null;
      // A secret sealed by another backend (the desktop app's keyring vs the CLI's file) cannot be opened
      // here; the user re-enters it rather than Skimmer guessing.
      if (row.backend !== sealer.info.backend) return null;
      return sealer.open(row.ciphertext);
    },
    has: (name) => exists.get(name) !== undefined,
    remove: (name) => void del.run(name),
    async values() {
      const opened = await Promise.all(
        all.all(sealer.info.backend).map((row) => sealer.open(row.ciphertext).catch(() => null)),
      );
      return opened.filter((v): v is string => typeof v === 'string' && v.length > 0);
    },
  };
}
