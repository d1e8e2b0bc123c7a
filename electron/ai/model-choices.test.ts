import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { tempDir } from '../../test/support/temp.ts';
import { openDatabase } from '../db/open.ts';
import { fileSealer } from '../secrets/file-vault.ts';
import { createKeyVault } from '../secrets/key-vault.ts';
import { AssistantError } from './assistant-error.ts';
import { prepareModelChoices } from './model-choices.ts';
import { prepareServices } from './services.ts';

async function setup() {
  const dir = tempDir();
  const db = openDatabase(join(dir, 'skimmer.db'));
  const services = prepareServices(db, createKeyVault(db, fileSealer(dir)));
  const local = await services.add({ name: 'local', kind: 'openai', baseUrl: 'http://127.0.0.1:11434/v1' });
  const dec = await services.add({ name: 'dec', kind: 'decisions', baseUrl: 'http://127.0.0.1:9/v1' });
  let clock = 1000;
  return { db, services, local, dec, choices: prepareModelChoices(db, services, () => clock++) };
}

describe('model choices', () => {
  test('keeps one default per task and shows it with the service name of today', async () => {
    const { services, local, choices } = await setup();
    expect(choices.defaults()).toEqual({ chat: null, summary: null, triage: null });
    choices.setDefault('chat', 'local/llama3.2');
    choices.setDefault('summary', 'local/qwen3:8b/q4');
    expect(choices.defaults()).toEqual({
      chat: 'local/llama3.2',
      summary: 'local/qwen3:8b/q4',
      triage: null,
    });
    await services.update({ id: local.id, name: 'home', baseUrl: 'http://127.0.0.1:11434/v1' });
    expect(choices.defaults().chat).toBe('home/llama3.2');
  });

  test('clears a default with null, and drops the defaults of a removed service', async () => {
    const { services, dec, choices } = await setup();
    choices.setDefault('triage', 'dec/gpt-6-luna');
    choices.setDefault('chat', 'local/llama3.2');
    expect(choices.setDefault('chat', null)).toEqual({ chat: null, summary: null, triage: 'dec/gpt-6-luna' });
    services.remove(dec.id);
    expect(choices.defaults().triage).toBeNull();
  });

  test('refuses a default on a service that does not exist or a reference without a model', async () => {
    const { choices } = await setup();
    expect(() => choices.setDefault('chat', 'nowhere/llama3.2')).toThrow(AssistantError);
    expect(() => choices.setDefault('chat', 'local/')).toThrow(/service\/model/);
  });

  test('offers a listed model list only for the settings it was listed with', async () => {
    const { services, local, choices } = await setup();
    choices.remember(local.id, local.version, ['llama3.2', 'qwen3:8b']);
    expect(choices.models()).toEqual([
      { service: 'dec', kind: 'decisions', models: null, listedAt: null },
      { service: 'local', kind: 'openai', models: ['llama3.2', 'qwen3:8b'], listedAt: 1000 },
    ]);
    await services.update({ id: local.id, name: 'local', baseUrl: 'http://127.0.0.1:8080/v1' });
    expect(choices.models().find((m) => m.service === 'local')?.models).toBeNull();
  });

  test('uses the model named, else the task default, else says how to choose one', async () => {
    const { choices } = await setup();
    expect(() => choices.modelFor('summary', undefined)).toThrow(/default summary model in Settings/);
    choices.setDefault('summary', 'local/llama3.2');
    expect(choices.modelFor('summary', undefined)).toBe('local/llama3.2');
    expect(choices.modelFor('summary', '  ')).toBe('local/llama3.2');
    expect(choices.modelFor('summary', 'local/other')).toBe('local/other');
  });
});
