// `account:discover` through the bridge's dispatch (the sender check, the schema, the handler), as the account form
// calls it, on an app whose discovery asks the tests' own DNS server and trusts the tests' own CA: settings found,
// an address that is not one, nothing found, and a request the schema refuses. Every answer is parsed with the
// contract's envelope.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createApp } from '../electron/app.ts';
import { discoverHandlers } from '../electron/bridge/handlers/discover.ts';
import { channels, envelope } from '../shared/contract/index.ts';
import { callRaw } from './support/bridge.ts';
import { resolverFor, startDnsServer } from './support/dns-server.ts';
import { startHttpsServer } from './support/https-server.ts';
import { tempDir } from './support/temp.ts';
import { startTestCa } from './support/test-ca.ts';

const app = createApp({ dataDir: tempDir(), mode: 'browser' });
afterAll(() => app.close());
const answer = async (request: unknown) =>
  envelope(channels['account:discover'].response).parse(await callRaw(app, 'account:discover', request));

beforeAll(async () => {
  const ca = startTestCa();
  const [dns, web] = await Promise.all([
    startDnsServer({ a: { 'autoconfig.bridge.test': '127.0.0.1' } }),
    startHttpsServer(ca, ['autoconfig.bridge.test']),
  ]);
  web.serve(
    'autoconfig.bridge.test',
    '/mail/config-v1.1.xml',
    `<clientConfig version="1.1"><emailProvider id="bridge.test">
      <incomingServer type="imap"><hostname>imap.bridge.test</hostname><port>993</port><socketType>SSL</socketType>
        <username>%EMAILADDRESS%</username><authentication>OAuth2</authentication></incomingServer>
      <outgoingServer type="smtp"><hostname>smtp.bridge.test</hostname><port>465</port><socketType>SSL</socketType>
        <username>%EMAILADDRESS%</username><authentication>OAuth2</authentication></outgoingServer>
    </emailProvider><oAuth2><issuer>sso.bridge.test</issuer></oAuth2></clientConfig>`,
  );
  // The handler the app built asks the system's DNS; this one asks the test's, and nothing else changes.
  Object.assign(
    app.handlers,
    discoverHandlers({ resolver: resolverFor(dns.port), ca: ca.cert, ports: { https: web.port, http: 1 } }),
  );
});

describe('account:discover', () => {
  test('answers the settings, where each came from, and the warnings', async () => {
    const r = await answer({ address: 'ana@bridge.test' });
    expect(r).toEqual({
      ok: true,
      value: {
        settings: {
          imap: { host: 'imap.bridge.test', port: 993, tls: 'tls' },
          smtp: { host: 'smtp.bridge.test', port: 465, tls: 'tls' },
          user: 'ana@bridge.test',
          auth: 'oauth',
          oauthIssuer: 'https://sso.bridge.test',
        },
        sources: ['imap', 'smtp', 'auth'].map((setting) => ({
          setting,
          from: 'autoconfig (https)',
          detail: expect.stringMatching(/^https:\/\/autoconfig\.bridge\.test:\d+\/mail\/config-v1\.1\.xml$/),
          verified: true,
        })),
        warnings: [],
      },
    });
  });

  test('an address that is not one is invalid_request, with its sentence', async () => {
    expect(await answer({ address: 'ana at bridge.test' })).toEqual({
      ok: false,
      error: {
        code: 'invalid_request',
        message: '"ana at bridge.test" is not a mail address: type it as name@example.com.',
      },
    });
  });

  test('nothing found is not_found, with what was tried', async () => {
    const r = await answer({ address: 'ana@nothing.bridge.test' });
    expect(r).toMatchObject({ ok: false, error: { code: 'not_found' } });
    expect(!r.ok && r.error.message).toMatch(/^No mail settings were found for nothing\.bridge\.test/);
  });

  test('a request the schema refuses never reaches discovery', async () => {
    expect(await answer({ address: 'ana@bridge.test', password: 'x' })).toMatchObject({
      ok: false,
      error: { code: 'invalid_request' },
    });
    expect(await answer({ address: 'a'.repeat(321) })).toMatchObject({
      ok: false,
      error: { code: 'invalid_request' },
    });
  });
});
