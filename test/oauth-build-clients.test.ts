// A packaged build's own client ids (oauth-clients.json, issue 28): the presets say which providers have one,
// a sign-in with such a preset may leave the client id out and then uses the build's, a person's own id wins,
// and a provider without one is refused with a sentence before any listener opens. Microsoft's preset names its
// endpoints, so nothing here reaches the network: the sign-in is started and cancelled.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { type App, createApp } from '../electron/app.ts';
import { callRaw } from './support/bridge.ts';
import { tempDir } from './support/temp.ts';

let app: App | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

function withClients(clients: object | null): App {
  const dir = tempDir();
  const file = join(dir, 'oauth-clients.json');
  if (clients) writeFileSync(file, JSON.stringify(clients));
  app = createApp({ dataDir: join(dir, 'data'), mode: 'browser', oauthClientsFile: file });
  return app;
}

const start = (a: App, clientId?: string) =>
  callRaw(a, 'account:oauthStart', {
    name: 'work',
    user: 'ana@contoso.example',
    provider: 'microsoft',
    ...(clientId ? { clientId } : {}),
  }) as Promise<{
    ok: boolean;
    value?: { signInId: string; authorizeUrl: string };
    error?: { message: string };
  }>;

describe("the build's own client ids", () => {
  test('the presets say which providers the build has a client for', async () => {
    const a = withClients({ microsoft: { clientId: 'build-entra-id' } });
    const r = (await callRaw(a, 'account:oauthPresets', {})) as {
      ok: boolean;
      value: { name: string; builtInClient: boolean }[];
    };
    expect(r.value.filter((p) => p.builtInClient).map((p) => p.name)).toEqual(['microsoft']);
    // The id itself stays in the main process.
    expect(JSON.stringify(r)).not.toContain('build-entra-id');
  });

  test("a sign-in without a client id uses the build's; a person's own id wins", async () => {
    const a = withClients({ microsoft: { clientId: 'build-entra-id' } });
    const built = await start(a);
    expect(built.ok).toBe(true);
    expect(new URL(built.value?.authorizeUrl ?? '').searchParams.get('client_id')).toBe('build-entra-id');
    await callRaw(a, 'account:oauthCancel', { signInId: built.value?.signInId ?? '' });
    const own = await start(a, 'my-own-id');
    expect(new URL(own.value?.authorizeUrl ?? '').searchParams.get('client_id')).toBe('my-own-id');
    await callRaw(a, 'account:oauthCancel', { signInId: own.value?.signInId ?? '' });
  });

  test('without a build file, leaving the client id out is refused with a sentence', async () => {
    const a = withClients(null);
    const r = await start(a);
    expect(r.ok).toBe(false);
    expect(r.error?.message).toBe(
      'Give the client id you registered with the provider: this build brings none for it (Skimmer ships none).',
    );
  });
});
