import { describe, expect, test } from 'vitest';
import { addressProblem, formOf, isEdited, readAddresses, saveRequest } from './draft-form.ts';

const draft = {
  id: 1,
  to: ['carol@example.org', 'dan@example.org'],
  cc: [],
  subject: 'Lunch',
  body: 'Noon?',
  inReplyTo: null,
  updatedAt: 0,
};

describe('the draft form', () => {
  test('reads comma-separated addresses, trimming and skipping empty entries', () => {
    expect(readAddresses(' a@x.org, ,b@y.org ,')).toEqual({ addresses: ['a@x.org', 'b@y.org'], invalid: [] });
    expect(readAddresses('')).toEqual({ addresses: [], invalid: [] });
  });

  test.each([
    ['carol at example.org'],
    ['a@x.org b@y.org'],
    ['carol@'],
    ['@example.org'],
    ['carol@localhost'],
    ['Carol <carol@example.org>'],
  ])('flags %s as not an address', (entry) => {
    expect(readAddresses(entry).invalid).toEqual([entry]);
  });

  test('names each entry that is not an address', () => {
    expect(addressProblem('a@x.org, nope')).toBe(
      '“nope” is not an email address. Separate addresses with commas.',
    );
    expect(addressProblem('a, b')).toBe('“a”, “b” are not email addresses. Separate addresses with commas.');
    expect(addressProblem('a@x.org')).toBeNull();
  });

  test('counts only a change Skimmer would store as an edit', () => {
    const form = formOf(draft);
    expect(form.to).toBe('carol@example.org, dan@example.org');
    expect(isEdited({ ...form, to: 'carol@example.org,dan@example.org' }, draft)).toBe(false);
    expect(isEdited({ ...form, body: 'One?' }, draft)).toBe(true);
    expect(isEdited({ ...form, cc: 'eve@example.org' }, draft)).toBe(true);
  });

  test('builds the save request from the typed text', () => {
    expect(saveRequest(1, { to: 'a@x.org, b@y.org', cc: '', subject: 'S', body: 'B' })).toEqual({
      id: 1,
      to: ['a@x.org', 'b@y.org'],
      cc: [],
      subject: 'S',
      body: 'B',
    });
  });
});
