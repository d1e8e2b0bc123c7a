import { describe, expect, test } from 'vitest';
import { hostInText, shownHostMismatch } from './link-host.ts';

describe('hostInText', () => {
  test.each([
    ['https://mail.example.com/owa/account/storage', 'mail.example.com'],
    ['www.Bank.example', 'www.bank.example'],
    ['  portal.example.org  ', 'portal.example.org'],
    ['http://shop.example.net:8080/x?y', 'shop.example.net'],
  ])('reads %j as showing %j', (text, host) => {
    expect(hostInText(text)).toBe(host);
  });

  test.each(['Verify now', 'customer portal', 'see example.com for details', ''])(
    'finds no address in %j',
    (text) => {
      expect(hostInText(text)).toBeNull();
    },
  );
});

describe('shownHostMismatch', () => {
  test('names the shown host when the link opens another one', () => {
    expect(shownHostMismatch('https://mail.example.com/owa', 'examp1e-login.example.net')).toBe(
      'mail.example.com',
    );
  });

  test('takes www. and case as the same site', () => {
    expect(shownHostMismatch('WWW.Example.com', 'example.com')).toBeNull();
  });

  test('says nothing when the text is not an address', () => {
    expect(shownHostMismatch('Sign in', 'evil.example.net')).toBeNull();
  });

  test('sees a subdomain as another host', () => {
    expect(shownHostMismatch('example.com', 'login.example.com')).toBe('example.com');
  });
});
