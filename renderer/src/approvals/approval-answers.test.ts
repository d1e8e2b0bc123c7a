import { expect, test } from 'vitest';
import type { ApprovalCall } from '../../../shared/contract/index.ts';
import { allDecided, answersFor, choiceFor } from './approval-answers.ts';

// A stand-in for the hash of each call's arguments: distinct per id, as the main process makes them.
const hashOf = (id: string) =>
  Array.from(id, (c) => c.charCodeAt(0).toString(16).padStart(2, '0'))
    .join('')
    .padEnd(64, '0');
const call = (id: string, extra: Partial<ApprovalCall> = {}): ApprovalCall => ({
  id,
  argsHash: hashOf(id),
  name: 'archive',
  effect: 'write',
  args: { ids: [1] },
  preview: { title: 'Archive 1 message', lines: [] },
  provenance: { fromUntrusted: [], notNamedByUser: [] },
  grantable: true,
  held: false,
  ...extra,
});

test('a held call starts approved; any other starts undecided', () => {
  expect(choiceFor(call('a', { held: true }), {}).decision).toBe('approve');
  expect(choiceFor(call('b'), {}).decision).toBeNull();
});

test('the card is decided once every call has a decision', () => {
  const calls = [call('a'), call('b', { held: true })];
  expect(allDecided(calls, {})).toBe(false);
  expect(allDecided(calls, { a: { decision: 'deny', reason: '', grant: 'once' } })).toBe(true);
  expect(allDecided([], {})).toBe(false);
});

test('every call gets an answer: reasons go with denials, grants with approvals', () => {
  const calls = [call('a'), call('b'), call('c', { held: true })];
  expect(
    answersFor(calls, {
      a: { decision: 'deny', reason: '  keep this one  ', grant: 'always' },
      b: { decision: 'approve', reason: 'ignored', grant: 'conversation' },
    }),
  ).toEqual([
    { id: 'a', argsHash: hashOf('a'), decision: 'deny', reason: 'keep this one' },
    { id: 'b', argsHash: hashOf('b'), decision: 'approve', grant: 'conversation' },
    { id: 'c', argsHash: hashOf('c'), decision: 'approve' },
  ]);
});

test('a wider grant is never sent for a call that is not grantable', () => {
  const send = call('s', { name: 'send_mail', effect: 'send', grantable: false });
  expect(answersFor([send], { s: { decision: 'approve', reason: '', grant: 'always' } })).toEqual([
    { id: 's', argsHash: hashOf('s'), decision: 'approve' },
  ]);
});

test('approve all and deny all answer every call, held ones too', () => {
  const calls = [call('a'), call('b', { held: true })];
  expect(answersFor(calls, {}, 'deny')).toEqual([
    { id: 'a', argsHash: hashOf('a'), decision: 'deny' },
    { id: 'b', argsHash: hashOf('b'), decision: 'deny' },
  ]);
  expect(answersFor(calls, { a: { decision: 'deny', reason: 'no', grant: 'once' } }, 'approve')).toEqual([
    { id: 'a', argsHash: hashOf('a'), decision: 'approve' },
    { id: 'b', argsHash: hashOf('b'), decision: 'approve' },
  ]);
});

test('one decision never stands for two calls that share an id: nothing is answered', () => {
  const markRead = call('same', { name: 'mark_read' });
  const send = call('same', { name: 'send_mail', effect: 'send', argsHash: hashOf('send') });
  const choices = { same: { decision: 'approve' as const, reason: '', grant: 'once' as const } };
  expect(allDecided([markRead, send], choices)).toBe(false);
  expect(answersFor([markRead, send], choices)).toEqual([]);
  expect(answersFor([markRead, send], {}, 'approve')).toEqual([]);
});

test('deciding one call of two leaves the card undecided', () => {
  const calls = [call('sc-a', { name: 'mark_read' }), call('sc-b', { name: 'send_mail', effect: 'send' })];
  expect(allDecided(calls, { 'sc-a': { decision: 'approve', reason: '', grant: 'once' } })).toBe(false);
});
