import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { tempDir } from '../../test/support/temp.ts';
import { openDatabase } from '../db/open.ts';
import { fileSealer } from '../secrets/file-vault.ts';
import { createKeyVault } from '../secrets/key-vault.ts';
import { AssistantError } from './assistant-error.ts';
import { connectForMail, connectForOwnWords, splitModelRef } from './model-access.ts';
import { prepareServices } from './services.ts';

async function setup() {
  const dir = tempDir();
  const db = openDatabase(join(dir, 'skimmer.db'));
  const services = prepareServices(db, createKeyVault(db, fileSealer(dir)));
  const cloud = await services.add({
    name: 'cloud',
    kind: 'openai',
    baseUrl: 'https://api.example.com/v1',
    key: 'k-cloud-1234',
  });
  await services.add({ name: 'local', kind: 'openai', baseUrl: 'http://127.0.0.1:11434/v1' });
  // Counts the connections handed out (each one reads the key from the vault).
  let connections = 0;
  const counted = {
    ...services,
    connection: (id: number) => {
      connections += 1;
      return services.connection(id);
    },
  };
  return { services, counted, cloud, connections: () => connections };
}

async function reasonOf(work: Promise<unknown>): Promise<string> {
  const e = await work.catch((error: unknown) => error);
  if (!(e instanceof AssistantError)) throw new Error(`expected an AssistantError, got ${String(e)}`);
  return e.reason;
}

describe('connectForMail', () => {
  test('refuses a remote service the user has not allowed, before reading its key', async () => {
    const { counted, connections } = await setup();
    expect(await reasonOf(connectForMail(counted, 'cloud/gpt'))).toBe('no_consent');
    expect(connections()).toBe(0);
  });

  test('connects to a remote service once it is allowed, with the model id after the first slash', async () => {
    const { services, cloud } = await setup();
    services.setMailConsent(cloud.id, true);
    expect(await connectForMail(services, 'cloud/org/model-1')).toEqual({
      serviceId: cloud.id,
      model: 'org/model-1',
      connection: { kind: 'openai', baseUrl: 'https://api.example.com/v1', version: 1, key: 'k-cloud-1234' },
    });
  });

  test('asks again after the allowed service is edited', async () => {
    const { services, cloud } = await setup();
    services.setMailConsent(cloud.id, true);
    await services.update({ id: cloud.id, baseUrl: 'https://other.example.com/v1' });
    expect(await reasonOf(connectForMail(services, 'cloud/gpt'))).toBe('no_consent');
  });

  test('needs no consent for a service on this computer', async () => {
    const { services } = await setup();
    expect((await connectForMail(services, 'local/llama3.2')).model).toBe('llama3.2');
  });

  test.each([
    ['a reference without a model', 'cloud/', 'invalid'],
    ['a reference without a service', '/gpt', 'invalid'],
    ['a service that does not exist', 'nowhere/gpt', 'not_found'],
  ])('refuses %s', async (_name, ref, reason) => {
    const { services } = await setup();
    expect(await reasonOf(connectForMail(services, ref))).toBe(reason);
  });
});

describe('connectForOwnWords', () => {
  test('connects without consent, for plain chat that sends only the user’s words', async () => {
    const { services, cloud } = await setup();
    expect((await connectForOwnWords(services, 'cloud/gpt')).serviceId).toBe(cloud.id);
  });
});

describe('splitModelRef', () => {
  test('ends the service name at the first slash', () => {
    expect(splitModelRef('a/b/c')).toEqual({ service: 'a', model: 'b/c' });
  });
});
