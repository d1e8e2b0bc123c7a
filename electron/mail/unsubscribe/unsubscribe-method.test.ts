import { describe, expect, test } from 'vitest';
import { readMailto } from './mailto.ts';
import { chooseWay } from './unsubscribe-method.ts';

const links = (l: Partial<Parameters<typeof chooseWay>[0]>) => ({
  https: null,
  http: null,
  mailto: null,
  oneClick: false,
  ...l,
});

describe('the way to unsubscribe (RFC 8058 first, then email, then a page)', () => {
  test('a one-click https link is a POST to its host, over an email offered beside it', () => {
    expect(
      chooseWay(
        links({
          https: 'https://news.example.com/u/1',
          mailto: 'mailto:leave@news.example.com',
          oneClick: true,
        }),
      ),
    ).toEqual({ method: 'one-click', url: 'https://news.example.com/u/1', host: 'news.example.com' });
  });

  test('without One-Click the email comes before the https page', () => {
    expect(
      chooseWay(links({ https: 'https://news.example.com/u/1', mailto: 'mailto:leave@news.example.com' })),
    ).toEqual({
      method: 'mailto',
      mail: { to: ['leave@news.example.com'], subject: 'unsubscribe', body: '' },
    });
  });

  test('a page is all that is left: https without One-Click, else http, opened in the browser', () => {
    expect(chooseWay(links({ https: 'https://a.example/u', http: 'http://b.example/u' }))).toEqual({
      method: 'http',
      url: 'https://a.example/u',
      host: 'a.example',
    });
    expect(chooseWay(links({ http: 'http://unsub.example.com:8080/x' }))).toEqual({
      method: 'http',
      url: 'http://unsub.example.com:8080/x',
      host: 'unsub.example.com:8080',
    });
  });

  test('a mailto with no usable address falls through to the page, and nothing usable is null', () => {
    expect(chooseWay(links({ mailto: 'mailto:nobody', http: 'http://b.example/u' }))?.method).toBe('http');
    expect(chooseWay(links({ mailto: 'mailto:?subject=x' }))).toBeNull();
  });
});

describe('a mailto URI (RFC 6068)', () => {
  test('reads the address, subject and body, percent-decoded, with + as a plus', () => {
    expect(
      readMailto('mailto:leave+news@list.example?subject=Unsubscribe%20me&body=Remove%0D%0Aa+b%40c'),
    ).toEqual({ to: ['leave+news@list.example'], subject: 'Unsubscribe me', body: 'Remove\na+b@c' });
  });

  test('adds `to=` recipients, up to three, and ignores cc, bcc and other headers', () => {
    expect(
      readMailto(
        'mailto:a@x.example,b@x.example?to=c@x.example,d@x.example&cc=boss@x.example&bcc=spy@x.example&from=me@x.example&in-reply-to=%3Cx%3E',
      ),
    ).toEqual({ to: ['a@x.example', 'b@x.example', 'c@x.example'], subject: 'unsubscribe', body: '' });
  });

  test('a subject keeps no line break and is bounded, and so is the body', () => {
    const mail = readMailto(
      `mailto:a@x.example?subject=one%0D%0ABcc:%20spy@x.example&body=${'y'.repeat(5000)}`,
    );
    expect(mail?.subject).toBe('one Bcc: spy@x.example');
    expect(mail?.body.length).toBe(2000);
    expect(readMailto(`mailto:a@x.example?subject=${'s'.repeat(900)}`)?.subject.length).toBe(200);
  });

  test('refuses what is not one plain address, and malformed escapes', () => {
    expect(readMailto('mailto:Boss%20%3Cboss@x.example%3E')).toBeNull();
    // An encoded comma is inside one address, which is then not one: no second address smuggled in.
    expect(readMailto('mailto:a@x.example%2Cb@y.example')).toBeNull();
    expect(readMailto('mailto:%E0%A4%A@x.example')).toBeNull();
    expect(readMailto('https://x.example/')).toBeNull();
    expect(readMailto('mailto:a@x.example?subject=%ZZ')?.subject).toBe('unsubscribe');
  });
});
