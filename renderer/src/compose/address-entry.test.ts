import { describe, expect, test } from 'vitest';
import { addEntries, entriesProblem, isAddress, readEntries } from './address-entry.ts';

describe('address entries', () => {
  test.each([
    ['ann@example.org', ['ann@example.org']],
    [' ann@example.org, ,bob@example.org ;', ['ann@example.org', 'bob@example.org']],
    [
      'ann@example.org\nbob@example.org\r\ncarol@example.org',
      ['ann@example.org', 'bob@example.org', 'carol@example.org'],
    ],
    ['Ann Lee <ann@example.org>, "Bob" <bob@example.org>', ['ann@example.org', 'bob@example.org']],
    ['team: ann@example.org, bob@example.org;', ['ann@example.org', 'bob@example.org']],
    ['carol at example.org', ['carol at example.org']],
  ])('reads %j as %j', (text, entries) => {
    expect(readEntries(text)).toEqual(entries);
  });

  test.each([
    ['ann@example.org', true],
    ['carol at example.org', false],
    ['carol@', false],
    ['carol@localhost', false],
    ['Ann <ann@example.org>', false],
  ])('tells whether %s is an address: %s', (entry, valid) => {
    expect(isAddress(entry)).toBe(valid);
  });

  test('adds each address once, whatever its case', () => {
    expect(
      addEntries(['Ann@Example.org'], ['ann@example.org', 'bob@example.org', 'BOB@example.org']),
    ).toEqual(['Ann@Example.org', 'bob@example.org']);
  });

  test('names the chips that are not addresses', () => {
    expect(entriesProblem(['ann@example.org'])).toBeNull();
    expect(entriesProblem(['ann@example.org', 'carol at example.org'])).toBe(
      '“carol at example.org” is not an email address.',
    );
    expect(entriesProblem(['x', 'y@'])).toBe('“x”, “y@” are not email addresses.');
  });
});
