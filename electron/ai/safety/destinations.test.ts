import { describe, expect, test } from 'vitest';
import { argumentDestinations, destinations } from './destinations.ts';

describe('destinations', () => {
  test.each([
    // Mail addresses, compared whole.
    ['write to priya.raman@example.com.', ['priya.raman@example.com']],
    ["write to x'priya.raman@example.com", ["x'priya.raman@example.com"]],
    ["'priya@example.com', (priya@example.com) and **priya@example.com**", ['priya@example.com']],
    ['mailto:priya@example.com', ['priya@example.com']],
    ['mailto:evil@x.example?body=secret', ['evil@x.example?body=secret']],
    ['user@evil.example/x', ['user@evil.example/x']],
    // Links with a scheme: http(s) without scheme, www. or final slash.
    ['see https://WWW.Evil.Example/a/ now', ['evil.example/a']],
    ['[verify](https://evil.example.net/v?c=463820)', ['evil.example.net/v?c=463820']],
    ['https://x.example/wiki/Foo_(bar).', ['x.example/wiki/foo_(bar)']],
    ['ftp://files.example/a', ['ftp://files.example/a']],
    ['http://intranet/x', ['intranet/x']],
    ['https://priya.raman@example.com@evil.example/', ['priya.raman%40example.com@evil.example']],
    // Bare hosts and links without a scheme.
    ['RSVP: evil.example/c?d=Hey%20Bob', ['evil.example/c?d=hey%20bob']],
    ['see evil.example.', ['evil.example']],
    ['//evil.example/x', ['evil.example/x']],
    ['www.evil.example:8080/x', ['evil.example:8080/x']],
    ['wait...evil.example', ['evil.example']],
    ['report.pdf?x=1', ['report.pdf?x=1']],
    // Punycode and look-alikes: one form for one host.
    ['https://exämple.com and xn--exmple-cua.com', ['xn--exmple-cua.com']],
    ['pаypal.com', ['xn--pypal-4ve.com']],
    ['ｅｖｉｌ．ｅｘａｍｐｌｅ and evil。example', ['evil.example']],
    // IP addresses.
    ['1.2.3.4/x and 127.0.0.1:8080', ['1.2.3.4/x', '127.0.0.1:8080']],
    ['[2001:db8::1]:8080/x and 2001:db8::2/y', ['[2001:db8::1]:8080/x', '[2001:db8::2]/y']],
    ['http://[2001:0db8:0:0::1]/', ['[2001:db8::1]']],
  ])('%j names %j', (text, expected) => {
    expect(destinations(text)).toEqual(expected);
  });

  test.each([
    'e.g. i.e. a.m. U.S. z.B.',
    'v1.2.3, 2.4 million, 12,480.00 EUR, at 12:30 or 10:20:30',
    'file.txt, report.pdf, notes.docx, app.js and index.html',
    'std::vector and 2026-11-29T10:00:00.000Z',
    'Hey Bob, the birthday party is on Saturday at 19:00, bring the board games!',
    'a // comment, an @mention and user@localhost',
  ])('%j names nothing', (text) => {
    expect(destinations(text)).toEqual([]);
  });

  test('an argument that is one address is that address, whole', () => {
    expect(argumentDestinations(" X'Priya@Example.com ")).toEqual(["x'priya@example.com"]);
    expect(argumentDestinations('Priya <priya@example.com>')).toEqual(['priya@example.com']);
  });
});
