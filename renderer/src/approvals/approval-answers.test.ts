import { expect, test } from 'vitest';
import type { ApprovalCall } from '../../../shared/contract.ts';
import { allDecided, answersFor, choiceFor } from './approval-answers.ts';

const call = (id: string, extra: Partial<ApprovalCall> = {}): ApprovalCall => ({
  id,
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
    { id: 'a', decision: 'deny', reason: 'keep this one' },
    { id: 'b', decision: 'approve', grant: 'conversation' },
    { id: 'c', decision: 'approve' },
  ]);
});

test('a wider grant is never sent for a call that is not grantable', () => {
  const send = call('s', { name: 'send_mail', effect: 'send', grantable: false });
  expect(answersFor([send], { s: { decision: 'approve', reason: '', grant: 'always' } })).toEqual([
    { id: 's', decision: 'approve' },
  ]);
});

test('approve all and deny all answer every call, held ones too', () => {
  const calls = [call('a'), call('b', { held: true })];
  expect(answersFor(calls, {}, 'deny')).toEqual([
    { id: 'a', decision: 'deny' },
    { id: 'b', decision: 'deny' },
  ]);
  expect(answersFor(calls, { a: { decision: 'deny', reason: 'no', grant: 'once' } }, 'approve')).toEqual([
    { id: 'a', decision: 'approve' },
    { id: 'b', decision: 'approve' },
  ]);
});
