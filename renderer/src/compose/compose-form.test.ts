import { describe, expect, test } from 'vitest';
import { type ComposeForm, hasWriting, sameForm, saveRequest, sendProblem } from './compose-form.ts';

const form: ComposeForm = {
  fromAddress: null,
  to: ['ann@example.org', 'ann at example.org'],
  cc: [],
  bcc: ['boss@example.org'],
  subject: 'Plans',
  body: 'Hello',
};

describe('the compose form', () => {
  test('saves only the chips that are addresses', () => {
    expect(saveRequest(7, form)).toEqual({
      id: 7,
      fromAddress: null,
      to: ['ann@example.org'],
      cc: [],
      bcc: ['boss@example.org'],
      subject: 'Plans',
      body: 'Hello',
    });
  });

  test('will not send while a chip is not an address', () => {
    expect(sendProblem(form)).toBe(
      '“ann at example.org” is not an email address. Fix it or remove it before sending.',
    );
  });

  test('will not send to nobody', () => {
    expect(sendProblem({ ...form, to: [], bcc: [] })).toBe('Add at least one recipient before sending.');
    expect(sendProblem({ ...form, to: [], bcc: ['boss@example.org'] })).toBeNull();
  });

  test('compares every field', () => {
    expect(sameForm(form, { ...form, to: [...form.to] })).toBe(true);
    expect(sameForm(form, { ...form, fromAddress: 'me@example.org' })).toBe(false);
    expect(sameForm(form, { ...form, bcc: [] })).toBe(false);
    expect(sameForm(form, { ...form, body: 'Hello!' })).toBe(false);
  });

  test('counts blank lines as nothing written', () => {
    const blank = { fromAddress: null, to: [], cc: [], bcc: [], subject: ' ', body: '\n\n' };
    expect(hasWriting(blank)).toBe(false);
    expect(hasWriting({ ...blank, body: 'x' })).toBe(true);
    expect(hasWriting({ ...blank, cc: ['x'] })).toBe(true);
  });
});
