import { chmodSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { tempDir } from '../../test/support/temp.ts';
import { openDatabase } from '../db/open.ts';
import { fileSealer } from './file-vault.ts';
import { createKeyVault } from './key-vault.ts';
import { safeStorageInfo, safeStorageSealer } from './safe-storage.ts';

describe('file vault', () => {
  test('round-trips a secret and stores only ciphertext', async () => {
    const dir = tempDir();
    const db = openDatabase(join(dir, 'skimmer.db'));
    const vault = createKeyVault(db, fileSealer(dir));
    await vault.set('service:1', 'sk-test-canary-vault-01');
    expect(await vault.get('service:1')).toBe('sk-test-canary-vault-01');
    expect(vault.has('service:1')).toBe(true);
    const row = db.prepare('SELECT backend, protection, ciphertext FROM secrets').get() as {
      ciphertext: Buffer;
    };
    expect(row).toMatchObject({ backend: 'file', protection: 'file-permissions' });
    expect(row.ciphertext.toString('latin1')).not.toContain('canary');
    vault.remove('service:1');
    expect(await vault.get('service:1')).toBeNull();
  });

  test('keeps its key in a 0600 file and reuses it', async () => {
    const dir = tempDir();
    const sealed = await fileSealer(dir).seal('hello');
    expect(statSync(join(dir, 'vault.key')).mode & 0o777).toBe(0o600);
    expect(readFileSync(join(dir, 'vault.key'))).toHaveLength(32);
    expect(await fileSealer(dir).open(sealed)).toBe('hello');
  });

  test('creates its key 0600 in a 0755 folder and tightens a key file left 0644', () => {
    const before = process.umask(0o022);
    try {
      const dir = tempDir();
      chmodSync(dir, 0o755);
      const key = join(dir, 'vault.key');
      fileSealer(dir);
      expect(statSync(key).mode & 0o777).toBe(0o600);
      chmodSync(key, 0o644);
      fileSealer(dir);
      expect(statSync(key).mode & 0o777).toBe(0o600);
    } finally {
      process.umask(before);
    }
  });

  test('refuses tampered ciphertext', async () => {
    const sealer = fileSealer(tempDir());
    const sealed = await sealer.seal('hello');
    sealed[sealed.length - 1] = (sealed[sealed.length - 1] ?? 0) ^ 1;
    await expect(sealer.open(sealed)).rejects.toThrow();
  });

  test('says plainly that it is protected by file permissions only', () => {
    expect(fileSealer(tempDir()).info.message).toContain('file permissions only');
  });
});

describe('safeStorage sealer', () => {
  const fake = (backend: string, available = true) => ({
    isAsyncEncryptionAvailable: async () => available,
    getSelectedStorageBackend: () => backend as 'basic_text',
    encryptStringAsync: async (s: string) => Buffer.from(`enc:${s}`),
    decryptStringAsync: async (b: Buffer) => ({ result: b.toString().slice(4), shouldReEncrypt: false }),
  });

  test('reports basic_text on Linux as not encrypted', async () => {
    const sealer = await safeStorageSealer(fake('basic_text'), 'linux');
    expect(sealer?.info).toMatchObject({ backend: 'safe-storage', protection: 'not-encrypted' });
    expect(sealer?.info.message).toContain('without real encryption');
  });

  test('reports a keyring as encrypted, and uses the async API', async () => {
    const sealer = await safeStorageSealer(fake('gnome_libsecret'), 'linux');
    expect(sealer?.info.protection).toBe('encrypted');
    expect(await sealer?.open(await sealer.seal('k'))).toBe('k');
  });

  test('is unavailable when the OS offers no encryption', async () => {
    expect(await safeStorageSealer(fake('gnome_libsecret', false), 'linux')).toBeNull();
  });

  test('a secret sealed by another backend is not opened with the wrong one', async () => {
    const dir = tempDir();
    const db = openDatabase(join(dir, 'skimmer.db'));
    const desktop = createKeyVault(db, (await safeStorageSealer(fake('kwallet6'), 'linux')) as never);
    await desktop.set('k', 'secret');
    expect(await createKeyVault(db, fileSealer(dir)).get('k')).toBeNull();
  });

  test('values() opens every secret of its own backend, for masking, and none of another', async () => {
    const dir = tempDir();
    const db = openDatabase(join(dir, 'skimmer.db'));
    const desktop = createKeyVault(db, (await safeStorageSealer(fake('kwallet6'), 'linux')) as never);
    const cli = createKeyVault(db, fileSealer(dir));
    await desktop.set('service:1', 'sk-test-canary-desktop-0001');
    await cli.set('service:2', 'sk-test-canary-cli-0002');
    await cli.set('account:3', 'hunter2-password');
    expect((await cli.values()).sort()).toEqual(['hunter2-password', 'sk-test-canary-cli-0002']);
    expect(await desktop.values()).toEqual(['sk-test-canary-desktop-0001']);
  });

  test.each([
    ['unknown', 'not-encrypted'],
    ['kwallet5', 'encrypted'],
  ])('backend %s is %s', (backend, protection) => {
    expect(safeStorageInfo(backend).protection).toBe(protection);
  });
});
