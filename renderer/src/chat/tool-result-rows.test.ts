import { describe, expect, test } from 'vitest';
import { resultRows, shortDate } from './tool-result-rows.ts';

const now = new Date('2026-12-01T15:00:00Z');

describe('tool result rows', () => {
  test('show search_mail hits as subject, sender and date rows', () => {
    const text = JSON.stringify([
      {
        id: 4,
        threadId: 2,
        subject: 'Invoice 42',
        from: 'Billing <b@vendor.example>',
        date: '2026-11-30T09:15:00.000Z',
        snippet: 'x',
      },
      {
        id: 5,
        threadId: 3,
        subject: '',
        from: 'ana@example.org',
        date: '2026-12-01T09:05:00.000Z',
        snippet: '',
      },
    ]);
    expect(resultRows('search_mail', text, now, 'UTC')).toEqual({
      kind: 'mail',
      rows: [
        { id: 4, subject: 'Invoice 42', from: 'Billing <b@vendor.example>', date: '30 Nov 2026' },
        { id: 5, subject: '(no subject)', from: 'ana@example.org', date: '09:05' },
      ],
    });
  });

  test('show labels with their counts, and a change or a queued send as a sentence', () => {
    expect(resultRows('list_labels', '[{"name":"Receipts","count":3}]', now, 'UTC')).toEqual({
      kind: 'labels',
      rows: [{ name: 'Receipts', count: 3 }],
    });
    expect(resultRows('archive', '{"changed":1}', now, 'UTC')).toEqual({
      kind: 'sentence',
      text: 'Changed 1 message.',
    });
    expect(resultRows('mark_read', '{"changed":3}', now, 'UTC')).toEqual({
      kind: 'sentence',
      text: 'Changed 3 messages.',
    });
    expect(
      resultRows('send_mail', '{"queued":7,"sendsAt":"2026-12-01T15:00:10.000Z","note":"…"}', now, 'UTC'),
    ).toEqual({
      kind: 'sentence',
      text: 'Queued to send at 15:00; Undo can still stop it.',
    });
  });

  test('leave anything else as the tool wrote it', () => {
    expect(resultRows('read_thread', '<untrusted_email id="4">…</untrusted_email>', now)).toBeNull();
    expect(resultRows('search_mail', '[1, 2]', now)).toBeNull();
    expect(resultRows('search_mail', 'There is no thread with id 9.', now)).toBeNull();
    expect(resultRows('archive', '{"other":true}', now)).toBeNull();
  });

  test('keep a date it cannot read as written', () => {
    expect(shortDate('yesterday', now)).toBe('yesterday');
  });
});
