// The file-based sealer for the CLI, the browser mode and tests (DESIGN §4): AES-256-GCM under a random
// key kept in a 0600 file in the data folder. That protects against a copied database, not against
// someone who can read the user's files, and the UI says exactly that.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Sealer } from './key-vault.ts';

const keyFileName = 'vault.key';

export function fileSealer(dataDir: string): Sealer {
  const key = loadOrCreateKey(join(dataDir, keyFileName));
  return {
    info: {
      backend: 'file',
      protection: 'file-permissions',
      message: 'Keys are encrypted with a key file in the data folder: protected by file permissions only.',
    },
    async seal(plaintext) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      return Buffer.concat([iv, cipher.getAuthTag(), body]);
    },
    async open(sealed) {
      const decipher = createDecipheriv('aes-256-gcm', key, sealed.subarray(0, 12));
      decipher.setAuthTag(sealed.subarray(12, 28));
      return Buffer.concat([decipher.update(sealed.subarray(28)), decipher.final()]).toString('utf8');
    },
  };
}

function loadOrCreateKey(file: string): Buffer {
  try {
    const key = readFileSync(file);
    if (key.length === 32) {
      // SECURITY: tighten permissions every time: a key file copied around may have lost its mode.
      chmodSync(file, 0o600);
      return key;
    }
  } catch (e) {
    if ((e as { code?: string }).code !== 'ENOENT') throw e;
  }
  const key = randomBytes(32);
  // SECURITY: created 0600 from the start (flag wx: never overwrite a key another process just wrote).
  writeFileSync(file, key, { mode: 0o600, flag: 'wx' });
  return key;
}
