// Settings found from an address (issue 28 §2), against real servers on loopback: a DNS server of the tests' own
// (SRV, MX, and A records mapping the test domains to 127.0.0.1) that discovery's resolver is pointed at, an HTTPS
// server with a test CA serving autoconfig files, a plain HTTP one, Dovecot behind TLS and smtp-server with TLS and
// STARTTLS for the probes. The system's resolver and trust store are never involved: each domain below exists
// only in the test's DNS.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { type DiscoverDeps, discover } from '../electron/mail/autoconfig/discover.ts';
import { DiscoveryError } from '../electron/mail/autoconfig/discovery-error.ts';
import { type DnsServer, resolverFor, startDnsServer, startSilentDns } from './support/dns-server.ts';
import { type Dovecot, startDovecot } from './support/dovecot.ts';
import { startHttpServer, startHttpsServer, type WebServer } from './support/https-server.ts';
import { startTestCa, type TestCa } from './support/test-ca.ts';
import { startTlsSmtp, tlsFront } from './support/tls-mail.ts';

const config = (o: {
  imap?: { host: string; port: number; socket: string; user?: string; auth?: string[] }[];
  smtp?: { host: string; port: number; socket: string; user?: string }[];
  issuer?: string;
}) => `<?xml version="1.0" encoding="UTF-8"?>
<clientConfig version="1.1">
  <emailProvider id="test">
    <domain>test</domain>
    <displayName>Test mail</displayName>
${(o.imap ?? [])
  .map(
    (s) => `    <incomingServer type="imap">
      <hostname>${s.host}</hostname>
      <port>${s.port}</port>
      <socketType>${s.socket}</socketType>
      <username>${s.user ?? '%EMAILADDRESS%'}</username>
${(s.auth ?? ['password-cleartext']).map((a) => `      <authentication>${a}</authentication>`).join('\n')}
    </incomingServer>`,
  )
  .join('\n')}
    <incomingServer type="pop3">
      <hostname>pop.example.test</hostname><port>995</port><socketType>SSL</socketType>
    </incomingServer>
${(o.smtp ?? [])
  .map(
    (s) => `    <outgoingServer type="smtp">
      <hostname>${s.host}</hostname>
      <port>${s.port}</port>
      <socketType>${s.socket}</socketType>
      <username>${s.user ?? '%EMAILADDRESS%'}</username>
      <authentication>password-cleartext</authentication>
    </outgoingServer>`,
  )
  .join('\n')}
  </emailProvider>
${o.issuer ? `  <oAuth2><issuer>${o.issuer}</issuer><scope>mail</scope></oAuth2>` : ''}
</clientConfig>
`;

let ca: TestCa;
let dns: DnsServer;
let web: WebServer;
let http: WebServer;
let dovecot: Dovecot;
// Dovecot behind implicit TLS, for imap.*.test; SMTP with implicit TLS, with STARTTLS, and plain.
let imapsPort: number;
let smtpsPort: number;
let submissionPort: number;
let plainSmtpPort: number;
// A port nothing listens on.
const deadPort = 1;

const domains = [
  'found.test',
  'wellknown.test',
  'oauth.test',
  'issuer.test',
  'srv.test',
  'dot.test',
  'google-mx.test',
  'microsoft-mx.test',
  'probe.test',
  'notxml.test',
  'huge.test',
  'chunked.test',
  'plaintext.test',
  'srvplain.test',
  'httponly.test',
  'redirect.test',
  'nothing.test',
];

beforeAll(async () => {
  ca = startTestCa();
  const names = domains.flatMap((d) => [d, `autoconfig.${d}`, `imap.${d}`, `smtp.${d}`, `mail.${d}`]);
  [dns, web, http, dovecot] = await Promise.all([
    startDnsServer(),
    startHttpsServer(ca, names),
    startHttpServer(),
    startDovecot(),
  ]);
  [imapsPort, smtpsPort, submissionPort, plainSmtpPort] = await Promise.all([
    tlsFront(ca, names, dovecot.port),
    startTlsSmtp(ca, names, 'tls'),
    startTlsSmtp(ca, names, 'starttls'),
    startTlsSmtp(null, [], 'plain'),
  ]);
});

const deps = (more: Partial<DiscoverDeps> = {}): DiscoverDeps => ({
  resolver: resolverFor(dns.port),
  ca: ca.cert,
  // Nothing listens on the standard ports here: discovery's guesses go to the test servers' ports.
  ports: {
    https: web.port,
    http: http.port,
    imaps: imapsPort,
    imap: dovecot.port,
    submissions: smtpsPort,
    submission: submissionPort,
  },
  timeoutMs: 5000,
  ...more,
});
const onLoopback = (...hosts: string[]) => {
  for (const h of hosts) dns.zone.a[h] = '127.0.0.1';
};
const refusal = async (address: string, more: Partial<DiscoverDeps> = {}) => {
  const e = await discover(address, deps(more)).then(
    () => null,
    (x: unknown) => x,
  );
  expect(e).toBeInstanceOf(DiscoveryError);
  return e as DiscoveryError;
};

describe('the autoconfig file', () => {
  test('over HTTPS at autoconfig.DOMAIN: implicit TLS chosen, placeholders filled, nothing probed', async () => {
    onLoopback('autoconfig.found.test');
    web.serve(
      'autoconfig.found.test',
      '/mail/config-v1.1.xml',
      config({
        imap: [
          { host: 'imap.found.test', port: 143, socket: 'STARTTLS', user: '%EMAILLOCALPART%' },
          { host: 'imap.%EMAILDOMAIN%', port: 993, socket: 'SSL', user: '%EMAILLOCALPART%' },
        ],
        smtp: [{ host: 'smtp.found.test', port: 587, socket: 'STARTTLS' }],
      }),
    );
    const found = await discover('ana@found.test', deps());
    expect(found.settings).toEqual({
      imap: { host: 'imap.found.test', port: 993, tls: 'tls' },
      smtp: { host: 'smtp.found.test', port: 587, tls: 'starttls' },
      user: 'ana',
      auth: 'password',
    });
    const url = `https://autoconfig.found.test:${web.port}/mail/config-v1.1.xml`;
    expect(found.sources).toEqual([
      { setting: 'imap', from: 'autoconfig (https)', detail: url, verified: true },
      { setting: 'smtp', from: 'autoconfig (https)', detail: url, verified: true },
      { setting: 'auth', from: 'autoconfig (https)', detail: url, verified: true },
    ]);
    expect(found.warnings).toEqual([]);
    // The file was enough: no host of the domain was looked up to be probed.
    expect(dns.asked).not.toContain('A imap.found.test');
  });

  test('the .well-known file on the domain itself when autoconfig.DOMAIN has none', async () => {
    onLoopback('autoconfig.wellknown.test', 'wellknown.test');
    web.serve(
      'wellknown.test',
      '/.well-known/autoconfig/mail/config-v1.1.xml',
      config({
        imap: [{ host: 'imap.wellknown.test', port: 993, socket: 'SSL' }],
        smtp: [{ host: 'smtp.wellknown.test', port: 465, socket: 'SSL' }],
      }),
    );
    const found = await discover('ana@wellknown.test', deps());
    expect(web.requests).toContain('autoconfig.wellknown.test /mail/config-v1.1.xml');
    expect(found.settings.imap).toEqual({ host: 'imap.wellknown.test', port: 993, tls: 'tls' });
    expect(found.settings.user).toBe('ana@wellknown.test');
    expect(found.sources[0]).toEqual({
      setting: 'imap',
      from: 'autoconfig (https)',
      detail: `https://wellknown.test:${web.port}/.well-known/autoconfig/mail/config-v1.1.xml`,
      verified: true,
    });
  });

  test("an OAuth2 hint is the sign-in: Google's by its issuer, another provider's issuer kept", async () => {
    onLoopback('autoconfig.oauth.test', 'autoconfig.issuer.test', 'smtp.issuer.test');
    web.serve(
      'autoconfig.oauth.test',
      '/mail/config-v1.1.xml',
      config({
        imap: [{ host: 'imap.gmail.com', port: 993, socket: 'SSL', auth: ['OAuth2', 'password-cleartext'] }],
        smtp: [{ host: 'smtp.gmail.com', port: 465, socket: 'SSL' }],
        issuer: 'accounts.google.com',
      }),
    );
    web.serve(
      'autoconfig.issuer.test',
      '/mail/config-v1.1.xml',
      config({
        imap: [{ host: 'imap.issuer.test', port: 993, socket: 'SSL', auth: ['OAuth2'] }],
        issuer: 'sso.issuer.test',
      }),
    );
    const google = await discover('ana@oauth.test', deps());
    expect(google.settings).toMatchObject({
      auth: 'oauth',
      oauthPreset: 'google',
      imap: { host: 'imap.gmail.com' },
    });
    const other = await discover('ana@issuer.test', deps());
    expect(other.settings).toMatchObject({ auth: 'oauth', oauthIssuer: 'https://sso.issuer.test' });
    expect(other.settings.oauthPreset).toBeUndefined();
    // Its file named no SMTP server; the one guessed would get the sign-in's token, and the warning says so.
    expect(other.settings.smtp).toEqual({ host: 'smtp.issuer.test', port: smtpsPort, tls: 'tls' });
    expect(other.warnings).toContain(
      `The SMTP server smtp.issuer.test:${smtpsPort} comes from guess: probed smtp.issuer.test, not from where the sign-in was found (autoconfig (https)): the sign-in's token would be sent to it, so check it first.`,
    );
  });

  test('over plain HTTP only: taken, but unverified and said so', async () => {
    onLoopback('autoconfig.httponly.test');
    http.serve(
      'autoconfig.httponly.test',
      '/mail/config-v1.1.xml',
      config({ imap: [{ host: 'imap.httponly.test', port: 993, socket: 'SSL' }] }),
    );
    const found = await discover('ana@httponly.test', deps());
    expect(found.settings.imap.host).toBe('imap.httponly.test');
    expect(found.sources[0]).toMatchObject({ from: 'autoconfig (http)', verified: false });
    expect(found.warnings.join(' ')).toContain('came over plain HTTP');
  });

  test('a redirect over plain HTTP makes the file unverified, whatever the last hop', async () => {
    onLoopback('autoconfig.redirect.test');
    web.serve('autoconfig.redirect.test', '/mail/config-v1.1.xml', {
      status: 302,
      body: '',
      headers: { location: `http://autoconfig.redirect.test:${http.port}/hop` },
    });
    http.serve('autoconfig.redirect.test', '/hop', {
      status: 301,
      body: '',
      headers: { location: `https://autoconfig.redirect.test:${web.port}/final.xml` },
    });
    web.serve(
      'autoconfig.redirect.test',
      '/final.xml',
      config({ imap: [{ host: 'imap.redirect.test', port: 993, socket: 'SSL' }] }),
    );
    const found = await discover('ana@redirect.test', deps());
    expect(found.sources[0]).toEqual({
      setting: 'imap',
      from: 'autoconfig (http)',
      detail: `https://autoconfig.redirect.test:${web.port}/final.xml`,
      verified: false,
    });
  });
});

describe('SRV records (RFC 6186)', () => {
  test('implicit TLS is preferred over STARTTLS, and among equals the heavier record; each checked for TLS', async () => {
    onLoopback('imap.srv.test', 'smtp.srv.test', 'dead.srv.test');
    dns.zone.srv['_imap._tcp.srv.test'] = [
      { priority: 0, weight: 0, port: dovecot.port, target: 'imap.srv.test' },
    ];
    dns.zone.srv['_imaps._tcp.srv.test'] = [
      { priority: 10, weight: 1, port: deadPort, target: 'dead.srv.test' },
      { priority: 10, weight: 50, port: imapsPort, target: 'imap.srv.test' },
    ];
    dns.zone.srv['_submissions._tcp.srv.test'] = [
      { priority: 5, weight: 0, port: smtpsPort, target: 'smtp.srv.test' },
    ];
    dns.zone.srv['_submission._tcp.srv.test'] = [
      { priority: 0, weight: 0, port: submissionPort, target: 'smtp.srv.test' },
    ];
    const found = await discover('ana@srv.test', deps());
    expect(found.settings).toEqual({
      imap: { host: 'imap.srv.test', port: imapsPort, tls: 'tls' },
      smtp: { host: 'smtp.srv.test', port: smtpsPort, tls: 'tls' },
      user: 'ana@srv.test',
      auth: 'password',
    });
    expect(found.sources[0]).toEqual({
      setting: 'imap',
      from: 'SRV',
      detail: `_imaps._tcp.srv.test → imap.srv.test:${imapsPort}`,
      verified: true,
    });
    expect(found.warnings).toEqual([]);
  });

  test('a target of "." is no such service: the other record or the next source answers', async () => {
    dns.zone.srv['_imaps._tcp.dot.test'] = [{ priority: 0, weight: 0, port: 0, target: '.' }];
    dns.zone.srv['_imap._tcp.dot.test'] = [{ priority: 0, weight: 0, port: 0, target: '.' }];
    dns.zone.srv['_submissions._tcp.dot.test'] = [{ priority: 0, weight: 0, port: 0, target: '.' }];
    dns.zone.srv['_submission._tcp.dot.test'] = [
      { priority: 0, weight: 0, port: submissionPort, target: 'smtp.dot.test' },
    ];
    onLoopback('smtp.dot.test');
    dns.zone.mx['dot.test'] = [{ priority: 10, exchange: 'aspmx.l.google.com' }];
    const found = await discover('ana@dot.test', deps());
    expect(found.settings.imap).toEqual({ host: 'imap.gmail.com', port: 993, tls: 'tls' });
    // The SRV record's SMTP server was found, but Google's sign-in is for Google's servers: a token never goes to it.
    expect(found.settings.smtp).toEqual({ host: 'smtp.gmail.com', port: 465, tls: 'tls' });
    expect(found.sources.map((s) => s.from)).toEqual(['MX: Google', 'MX: Google', 'MX: Google']);
    expect(found.warnings).toEqual([
      `The SMTP server smtp.dot.test:${submissionPort} (from SRV) was not used: mail at dot.test goes to Google, whose sign-in is for its own servers.`,
    ]);
  });
});

describe('the MX', () => {
  test("mail that goes to Google is Google's: its servers and its sign-in", async () => {
    dns.zone.mx['google-mx.test'] = [
      { priority: 5, exchange: 'alt1.aspmx.l.google.com' },
      { priority: 1, exchange: 'aspmx.l.google.com' },
    ];
    const found = await discover('ana@google-mx.test', deps());
    expect(found.settings).toEqual({
      imap: { host: 'imap.gmail.com', port: 993, tls: 'tls' },
      smtp: { host: 'smtp.gmail.com', port: 465, tls: 'tls' },
      user: 'ana@google-mx.test',
      auth: 'oauth',
      oauthPreset: 'google',
    });
    expect(found.sources[0]).toEqual({
      setting: 'imap',
      from: 'MX: Google',
      detail: 'MX aspmx.l.google.com',
      verified: true,
    });
  });

  test("mail that goes to Microsoft 365 is Microsoft's", async () => {
    dns.zone.mx['microsoft-mx.test'] = [
      { priority: 0, exchange: 'microsoft-mx-test.mail.protection.outlook.com' },
    ];
    const found = await discover('ana@microsoft-mx.test', deps());
    expect(found.settings).toEqual({
      imap: { host: 'outlook.office365.com', port: 993, tls: 'tls' },
      smtp: { host: 'smtp.office365.com', port: 587, tls: 'starttls' },
      user: 'ana@microsoft-mx.test',
      auth: 'oauth',
      oauthPreset: 'microsoft',
    });
    expect(found.sources.map((s) => s.from)).toEqual(['MX: Microsoft', 'MX: Microsoft', 'MX: Microsoft']);
  });
});

describe('the usual host names', () => {
  test('imap.DOMAIN (Dovecot behind TLS) and smtp.DOMAIN (STARTTLS) probed without a password, marked as guesses', async () => {
    onLoopback('imap.probe.test', 'smtp.probe.test');
    const found = await discover(
      'ana@probe.test',
      deps({ ports: { ...deps().ports, submissions: deadPort } }),
    );
    expect(found.settings).toEqual({
      imap: { host: 'imap.probe.test', port: imapsPort, tls: 'tls' },
      smtp: { host: 'smtp.probe.test', port: submissionPort, tls: 'starttls' },
      user: 'ana@probe.test',
      auth: 'password',
    });
    expect(found.sources).toEqual([
      {
        setting: 'imap',
        from: 'guess: probed imap.probe.test',
        detail: `imap.probe.test:${imapsPort} (tls)`,
        verified: false,
      },
      {
        setting: 'smtp',
        from: 'guess: probed smtp.probe.test',
        detail: `smtp.probe.test:${submissionPort} (starttls)`,
        verified: false,
      },
      {
        setting: 'auth',
        from: 'guess: probed imap.probe.test',
        detail: `imap.probe.test:${imapsPort} (tls)`,
        verified: false,
      },
    ]);
    expect(found.warnings.filter((w) => w.includes('is a guess'))).toHaveLength(2);
    // Dovecot saw connections that never tried to log in: no user was named, no password sent.
    await expect
      .poll(() => readFileSync(join(dovecot.dir, 'dovecot.log'), 'utf8'))
      .toMatch(/imap-login: Info: Disconnected: Aborted login by logging out \(no auth attempts/);
    expect(readFileSync(join(dovecot.dir, 'dovecot.log'), 'utf8')).not.toMatch(
      /imap-login: Login:|auth failed|user=<ana/,
    );
  });
});

describe('certificates', () => {
  test('the extra CA is trusted beside the system roots, never instead of checking: a certificate another CA signed is refused', async () => {
    const other = startTestCa();
    const foreignImaps = await tlsFront(other, ['imap.foreign.test'], dovecot.port);
    onLoopback('imap.foreign.test', 'smtp.foreign.test');
    const e = await refusal('ana@foreign.test', {
      ports: {
        ...deps().ports,
        imaps: foreignImaps,
        imap: deadPort,
        submissions: deadPort,
        submission: deadPort,
      },
    });
    expect(e.message).toMatch(/certificate is not valid for imap\.foreign\.test/);
  });
});

describe('bad input, each a sentence', () => {
  test('an address that is not one: refused before any question is asked', async () => {
    const before = dns.asked.length;
    for (const bad of ['ana', 'ana@', '@found.test', 'ana@found', 'Ana <ana@found.test>', 'a b@found.test']) {
      const e = await refusal(bad);
      expect(e.reason).toBe('invalid_address');
      expect(e.message).toMatch(/is not a mail address: type it as name@example\.com\.$/);
    }
    expect(dns.asked.length).toBe(before);
  });

  test('an autoconfig file that is not XML', async () => {
    onLoopback('autoconfig.notxml.test');
    web.serve('autoconfig.notxml.test', '/mail/config-v1.1.xml', '<clientConfig><emailProvider>not closed');
    const e = await refusal('ana@notxml.test');
    expect(e.reason).toBe('nothing_found');
    expect(e.message).toContain(
      `The autoconfig file at https://autoconfig.notxml.test:${web.port}/mail/config-v1.1.xml was not used: it is not XML`,
    );
  });

  test('a 5 MB autoconfig file, with its length declared or not, is not read past 100 KB', async () => {
    onLoopback('autoconfig.huge.test', 'autoconfig.chunked.test');
    const big = `<clientConfig>${' '.repeat(5 * 1024 * 1024)}</clientConfig>`;
    web.serve('autoconfig.huge.test', '/mail/config-v1.1.xml', {
      body: big,
      headers: { 'content-length': String(Buffer.byteLength(big)) },
    });
    web.serve('autoconfig.chunked.test', '/mail/config-v1.1.xml', {
      body: big,
      headers: { 'transfer-encoding': 'chunked' },
    });
    const declared = await refusal('ana@huge.test');
    expect(declared.message).toContain(`it is ${Buffer.byteLength(big)} bytes, over the 100 KB`);
    const streamed = await refusal('ana@chunked.test');
    expect(streamed.message).toContain('it is over the 100 KB an autoconfig file may be');
  });

  test('an autoconfig file pointing to plain-text ports on another host is refused, not taken', async () => {
    onLoopback('autoconfig.plaintext.test');
    web.serve(
      'autoconfig.plaintext.test',
      '/mail/config-v1.1.xml',
      config({
        imap: [{ host: 'mail.elsewhere.example', port: 143, socket: 'plain' }],
        smtp: [{ host: 'mail.elsewhere.example', port: 25, socket: 'plain' }],
      }),
    );
    const e = await refusal('ana@plaintext.test');
    expect(e.message).toContain(
      'names IMAP at mail.elsewhere.example:143, a host outside plaintext.test, without TLS: a password sent there would cross the network unencrypted, so it was not used.',
    );
    expect(e.message).toContain('names SMTP at mail.elsewhere.example:25');
  });

  test('SRV records pointing at ports without TLS are refused with the reason', async () => {
    onLoopback('imap.srvplain.test', 'smtp.srvplain.test');
    // Dovecot's own port speaks plain text: no TLS handshake, and no STARTTLS offered.
    dns.zone.srv['_imaps._tcp.srvplain.test'] = [
      { priority: 0, weight: 0, port: dovecot.port, target: 'imap.srvplain.test' },
    ];
    dns.zone.srv['_imap._tcp.srvplain.test'] = [
      { priority: 0, weight: 0, port: dovecot.port, target: 'imap.srvplain.test' },
    ];
    dns.zone.srv['_submission._tcp.srvplain.test'] = [
      { priority: 0, weight: 0, port: plainSmtpPort, target: 'smtp.srvplain.test' },
    ];
    // The guesses must not find them either: the usual ports here are the plain ones too.
    const plain = {
      ...deps().ports,
      imaps: dovecot.port,
      imap: dovecot.port,
      submissions: plainSmtpPort,
      submission: plainSmtpPort,
    };
    const e = await refusal('ana@srvplain.test', { ports: plain });
    expect(e.message).toContain(
      `The SRV record _imaps._tcp.srvplain.test points to imap.srvplain.test:${dovecot.port}, which was not used: it answered without TLS.`,
    );
    expect(e.message).toContain(
      `The SRV record _imap._tcp.srvplain.test points to imap.srvplain.test:${dovecot.port}, which was not used: it does not offer STARTTLS.`,
    );
    expect(e.message).toContain(
      `The SRV record _submission._tcp.srvplain.test points to smtp.srvplain.test:${plainSmtpPort}, which was not used: it does not offer STARTTLS.`,
    );
  });

  test('DNS that never answers: a sentence naming what could not be looked up', async () => {
    const silent = await startSilentDns();
    const e = await refusal('ana@found.test', { resolver: resolverFor(silent.port, 200) });
    expect(e.reason).toBe('nothing_found');
    expect(e.message).toMatch(/DNS did not answer in time for .*_imaps\._tcp\.found\.test/);
    expect(silent.questions()).toBeGreaterThan(0);
  });

  test('nothing found', async () => {
    const e = await refusal('ana@nothing.test');
    expect(e.reason).toBe('nothing_found');
    expect(e.message).toBe(
      'No mail settings were found for nothing.test (its autoconfig file, SRV and MX records and the usual host names were tried): enter the servers yourself.',
    );
  });
});

describe('the built-in table', () => {
  test('a well-known provider is answered without a question on the network', async () => {
    const before = dns.asked.length;
    const found = await discover('Ana@GMail.com', deps());
    expect(found.settings).toMatchObject({ auth: 'oauth', oauthPreset: 'google', user: 'Ana@GMail.com' });
    expect(found.sources[0]).toEqual({
      setting: 'imap',
      from: 'built-in',
      detail: "Skimmer's table of providers: Google",
      verified: true,
    });
    const icloud = await discover('ana@me.com', deps());
    expect(icloud.settings).toMatchObject({ auth: 'password', imap: { host: 'imap.mail.me.com' } });
    expect(dns.asked.length).toBe(before);
  });
});
