import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { tempDir } from '../../test/support/temp.ts';
import { openDatabase } from '../db/open.ts';
import { fileSealer } from '../secrets/file-vault.ts';
import { createKeyVault } from '../secrets/key-vault.ts';
import { AssistantError } from './assistant-error.ts';
import { prepareServices, serviceKeyName } from './services.ts';

function setup() {
  const dir = tempDir();
  const db = openDatabase(join(dir, 'skimmer.db'));
  const vault = createKeyVault(db, fileSealer(dir));
  return { db, vault, services: prepareServices(db, vault) };
}

describe('services', () => {
  test('saves a pasted endpoint as its base, previews the endpoint, and keeps the key in the vault', async () => {
    const { services, vault, db } = setup();
    const s = await services.add({
      name: 'work',
      kind: 'anthropic',
      baseUrl: 'https://api.anthropic.com/v1/messages',
      key: 'sk-test-canary-services-0011',
    });
    expect(s).toEqual({
      id: s.id,
      name: 'work',
      kind: 'anthropic',
      baseUrl: 'https://api.anthropic.com/v1',
      endpoint: 'https://api.anthropic.com/v1/messages',
      version: 1,
      hasKey: true,
      // Not on this computer, and no consent yet for mail to go there (DESIGN §5).
      remote: true,
      mailAllowed: false,
      inputPrice: null,
    });
    expect(await vault.get(serviceKeyName(s.id))).toBe('sk-test-canary-services-0011');
    // The key is in the vault only, never in the services table.
    expect(JSON.stringify(db.prepare('SELECT * FROM services').all())).not.toContain(
      'sk-test-canary-services',
    );
  });

  test('a price is kept without a new version, and consent given stays given', async () => {
    const { services } = setup();
    const s = await services.add({
      name: 'far',
      kind: 'decisions',
      baseUrl: 'https://decisions.example.com/v1',
    });
    services.setMailConsent(s.id, true);
    expect(services.setPrice(s.id, 0.15)).toMatchObject({ inputPrice: 0.15, version: 1, mailAllowed: true });
    expect(services.setPrice(s.id, null)).toMatchObject({ inputPrice: null, version: 1, mailAllowed: true });
    expect(() => services.setPrice(999, 1)).toThrow(AssistantError);
  });

  test('editing bumps the version; removing the key leaves hasKey false', async () => {
    const { services } = setup();
    const s = await services.add({
      name: 'a',
      kind: 'openai',
      baseUrl: 'http://localhost:11434/v1',
      key: 'k-12345678',
    });
    const edited = await services.update({ id: s.id, baseUrl: 'http://127.0.0.1:8080/v1' });
    expect(edited).toMatchObject({ version: 2, baseUrl: 'http://127.0.0.1:8080/v1', hasKey: true });
    expect(await services.update({ id: s.id, removeKey: true })).toMatchObject({ version: 3, hasKey: false });
  });

  test('refuses a non-loopback http address, a duplicate name and an unknown id with sentences', async () => {
    const { services } = setup();
    await services.add({ name: 'a', kind: 'openai', baseUrl: 'https://api.example.com/v1' });
    await expect(
      services.add({ name: 'b', kind: 'openai', baseUrl: 'http://api.example.com/v1' }),
    ).rejects.toThrow('Plain http://');
    await expect(
      services.add({ name: 'a', kind: 'openai', baseUrl: 'https://x.example.com' }),
    ).rejects.toThrow('already a service named "a"');
    const missing = await services.update({ id: 42, name: 'z' }).catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(AssistantError);
    expect((missing as AssistantError).reason).toBe('not_found');
  });

  test('removing a service removes its key', async () => {
    const { services, vault } = setup();
    const s = await services.add({
      name: 'a',
      kind: 'openai',
      baseUrl: 'https://api.example.com/v1',
      key: 'k-12345678',
    });
    expect(services.remove(s.id)).toBe(true);
    expect(vault.has(serviceKeyName(s.id))).toBe(false);
    expect(services.list()).toEqual([]);
    expect(services.remove(s.id)).toBe(false);
  });
});
