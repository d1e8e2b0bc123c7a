// Reading Thunderbird's autoconfig file: its IMAP and SMTP servers in order with their placeholders filled,
// OAuth2 hints, and what is refused (a DOCTYPE, XML that is not a clientConfig, a server without a port).
import { describe, expect, test } from 'vitest';
import { ConfigFileError, readClientConfig } from './client-config.ts';
import { mxProvider, presetOf } from './providers.ts';

const file = (body: string) =>
  `<?xml version="1.0"?><clientConfig version="1.1"><emailProvider id="x">${body}</emailProvider></clientConfig>`;

describe('readClientConfig', () => {
  test('servers in order, placeholders filled, POP3 left out, OAuth2 among the methods', () => {
    const c = readClientConfig(
      file(`
        <incomingServer type="pop3"><hostname>pop.x.test</hostname><port>995</port><socketType>SSL</socketType></incomingServer>
        <incomingServer type="imap"><hostname>imap.%EMAILDOMAIN%</hostname><port>993</port><socketType>SSL</socketType>
          <username>%EMAILLOCALPART%</username><authentication>password-cleartext</authentication><authentication>OAuth2</authentication></incomingServer>
        <outgoingServer type="smtp"><hostname>SMTP.X.TEST</hostname><port>587</port><socketType>STARTTLS</socketType>
          <username>%EMAILADDRESS%</username></outgoingServer>
        <incomingServer type="imap"><hostname>imap.x.test</hostname><port>none</port><socketType>SSL</socketType></incomingServer>
        <incomingServer type="imap"><hostname>imap.x.test</hostname><port>143</port><socketType>weird</socketType></incomingServer>`),
      'ana@x.test',
    );
    expect(c.imap).toEqual([{ host: 'imap.x.test', port: 993, tls: 'tls', user: 'ana', oauth: true }]);
    expect(c.smtp).toEqual([
      { host: 'smtp.x.test', port: 587, tls: 'starttls', user: 'ana@x.test', oauth: false },
    ]);
    expect(c.skipped).toEqual([
      'the IMAP server imap.x.test:none has no usable host or port',
      'the IMAP server imap.x.test:143 has an unknown socketType',
    ]);
    expect(c.oauthIssuer).toBeNull();
  });

  test('a DOCTYPE, text that is not XML and XML that is not a clientConfig are refused with the reason', () => {
    const refusal = (text: string) => {
      try {
        readClientConfig(text, 'ana@x.test');
      } catch (e) {
        expect(e).toBeInstanceOf(ConfigFileError);
        return (e as Error).message;
      }
      throw new Error('not refused');
    };
    expect(refusal('<!DOCTYPE x [<!ENTITY a "aaaa">]><clientConfig>&a;</clientConfig>')).toBe(
      'it declares a DOCTYPE, which an autoconfig file never needs',
    );
    expect(refusal('{"imap": "imap.x.test"}')).toMatch(/^it is not XML/);
    expect(refusal('<clientConfig><emailProvider></clientConfig>')).toMatch(/^it is not XML/);
    expect(refusal('<html><body>Not found</body></html>')).toBe(
      'it is XML but not an autoconfig file (no clientConfig)',
    );
  });
});

describe('providers', () => {
  test('MX hosts that mean Google or Microsoft, and no look-alike', () => {
    expect(mxProvider('ASPMX.L.GOOGLE.COM.')?.label).toBe('Google');
    expect(mxProvider('smtp.google.com')?.label).toBe('Google');
    expect(mxProvider('alt2.gmr-smtp-in.l.googlemail.com')?.label).toBe('Google');
    expect(mxProvider('contoso-com.mail.protection.outlook.com')?.label).toBe('Microsoft');
    expect(mxProvider('mail.notgoogle.com')).toBeNull();
    expect(mxProvider('google.com.evil.example')).toBeNull();
    expect(mxProvider('mail.protection.outlook.com.evil.example')).toBeNull();
  });

  test('the OAuth preset of an issuer or a host', () => {
    expect(presetOf('accounts.google.com')).toBe('google');
    expect(presetOf('https://login.microsoftonline.com/common/v2.0')).toBe('microsoft');
    expect(presetOf('imap.mail.yahoo.com')).toBe('yahoo');
    expect(presetOf('sso.example.test')).toBeNull();
    expect(presetOf('google.com.evil.example')).toBeNull();
  });
});
