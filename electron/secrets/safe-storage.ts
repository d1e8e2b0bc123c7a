// The desktop app's sealer: Electron's safeStorage through its async API (the sync one is deprecated in
// Electron 45), usable only after app ready. On Linux without a keyring, Chromium falls back to
// `basic_text`, which "encrypts" with a fixed password: Skimmer reports that as not encrypted.
// Only the type is imported: main.ts passes the real object, tests pass a fake.
import type { SafeStorage } from 'electron';
import type { VaultInfo } from '../../shared/contract/index.ts';
import type { Sealer } from './key-vault.ts';

type SafeStorageApi = Pick<
  SafeStorage,
  'encryptStringAsync' | 'decryptStringAsync' | 'isAsyncEncryptionAvailable' | 'getSelectedStorageBackend'
>;

export async function safeStorageSealer(
  safeStorage: SafeStorageApi,
  platform: string,
): Promise<Sealer | null> {
  if (!(await safeStorage.isAsyncEncryptionAvailable())) return null;
  return {
    info: safeStorageInfo(platform === 'linux' ? safeStorage.getSelectedStorageBackend() : 'os'),
    seal: (plaintext) => safeStorage.encryptStringAsync(plaintext),
    async open(ciphertext) {
      return (await safeStorage.decryptStringAsync(ciphertext)).result;
    },
  };
}

export function safeStorageInfo(linuxBackend: string): VaultInfo {
  if (linuxBackend === 'basic_text' || linuxBackend === 'unknown') {
    return {
      backend: 'safe-storage',
      protection: 'not-encrypted',
      message: 'No system keyring was found: keys are stored without real encryption on this computer.',
    };
  }
  return {
    backend: 'safe-storage',
    protection: 'encrypted',
    message: 'Keys are encrypted by the operating system keyring.',
  };
}
