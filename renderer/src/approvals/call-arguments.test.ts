import { expect, test } from 'vitest';
import { argumentRows, unnamedElsewhere, unnamedIn } from './call-arguments.ts';

const none = { fromUntrusted: [], notNamedByUser: [] };

test('each argument is a row with a short value', () => {
  expect(argumentRows({ ids: [12, 13], read: true }, none)).toEqual([
    { name: 'ids', value: '[12,13]', fromEmail: [] },
    { name: 'read', value: 'true', fromEmail: [] },
  ]);
});

test('paths from an email mark the argument they belong to', () => {
  const rows = argumentRows(
    { to: ['a@example.org', 'b@example.org'], subject: 'Hi', body: 'text' },
    { fromUntrusted: ['to[1]', 'body'], notNamedByUser: [] },
  );
  expect(rows.map((r) => [r.name, r.fromEmail])).toEqual([
    ['to', ['to[1]']],
    ['subject', []],
    ['body', ['body']],
  ]);
});

test('a marked path the arguments do not show still gets a row', () => {
  expect(argumentRows({ ids: [1] }, { fromUntrusted: ['folder'], notNamedByUser: [] })).toEqual([
    { name: 'ids', value: '[1]', fromEmail: [] },
    { name: 'folder', value: '—', fromEmail: ['folder'] },
  ]);
});

test('arguments that are not an object show as one row', () => {
  expect(argumentRows([1, 2], none)).toEqual([{ name: '(arguments)', value: '[1,2]', fromEmail: [] }]);
  expect(argumentRows(undefined, none)).toEqual([]);
});

test('addresses the user never named are found in the lines that mention them, in any case', () => {
  const notNamed = ['attacker@example.net', 'https://evil.example.net/x'];
  expect(unnamedIn('To: Attacker@Example.net', notNamed)).toEqual(['attacker@example.net']);
  expect(unnamedIn('Subject: hello', notNamed)).toEqual([]);
  expect(unnamedElsewhere(['To: attacker@example.net'], notNamed)).toEqual(['https://evil.example.net/x']);
});
