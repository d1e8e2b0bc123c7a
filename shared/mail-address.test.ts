import { describe, expect, test } from 'vitest';
import { addressKey, isDomainName, parseAddressList, parseMailbox } from './mail-address.ts';

describe('mail addresses', () => {
  test.each([
    ['priya.raman@example.com', 'priya.raman@example.com'],
    [' Priya.Raman@Example.COM ', 'Priya.Raman@Example.COM'],
    // An apostrophe is legal in a local part (o'brien@…): it is part of the address, not before it.
    ["x'priya.raman@example.com", "x'priya.raman@example.com"],
    ['a+tag@sub.example.co.uk', 'a+tag@sub.example.co.uk'],
    ['a@xn--bcher-kva.example', 'a@xn--bcher-kva.example'],
    ['a@example.xn--p1ai', 'a@example.xn--p1ai'],
  ])('%j is one valid address', (text, address) => {
    expect(parseMailbox(text)).toBe(address);
  });

  test.each([
    ['Priya <priya@example.com>', 'a display name'],
    ['a@example.com, b@example.com', 'a list'],
    ['team: a@example.com;', 'a group'],
    ['a@example.com<evil@x.example>', 'a second address the composer would read instead'],
    ['ab(comment)@example.com', 'a comment'],
    ['"a b"@example.com', 'a quoted local part'],
    ['a@[127.0.0.1]', 'an IP literal'],
    ['a@localhost', 'a one-label domain'],
    ['a@example.c0m', 'a top-level label with a digit'],
    ['.a@example.com', 'a leading dot'],
    ['a..b@example.com', 'two dots'],
    ['a@b@example.com', 'two @'],
    ['@example.com', 'no local part'],
    ['ünï@exämple.com', 'non-ASCII (the model can write the xn-- form)'],
    [`${'a'.repeat(65)}@example.com`, 'a local part over 64 characters'],
    ['a@example.com\nBcc: c@d.example', 'a header line'],
  ])('%j is refused (%s)', (text) => {
    expect(parseMailbox(text)).toBeNull();
  });

  test('addresses are compared trimmed and lower-cased, local part included', () => {
    expect(addressKey(' Priya.Raman@Example.COM ')).toBe('priya.raman@example.com');
    expect(addressKey("X'Priya@example.com")).not.toBe(addressKey('priya@example.com'));
  });

  test.each([
    ['example.com', true],
    ['a-b.example.co', true],
    ['xn--bcher-kva.example', true],
    ['example', false],
    ['example.c', false],
    ['example.123', false],
    ['-a.example', false],
    [`${'a'.repeat(64)}.example`, false],
  ])('%j is a domain name: %s', (name, ok) => {
    expect(isDomainName(name)).toBe(ok);
  });

  test.each([
    ['Priya Raman <priya@example.com>', [{ name: 'Priya Raman', address: 'priya@example.com' }]],
    [
      '"Raman, Priya" <priya@example.com>, sam@example.com',
      [
        { name: 'Raman, Priya', address: 'priya@example.com' },
        { name: '', address: 'sam@example.com' },
      ],
    ],
    [
      'team: a@example.com, B <b@example.com>;, c@example.com',
      [
        { name: '', address: 'a@example.com' },
        { name: 'B', address: 'b@example.com' },
        { name: '', address: 'c@example.com' },
      ],
    ],
    ['undisclosed-recipients:;', []],
    ['', []],
  ])('the address header %j is the mailboxes %j', (header, list) => {
    expect(parseAddressList(header)).toEqual(list);
  });
});
