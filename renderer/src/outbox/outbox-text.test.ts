import { describe, expect, test } from 'vitest';
import type { OutboxItem } from '../../../shared/contract/index.ts';
import { canUndo, outboxBusy, outboxLine, recipientsText, returnedLine } from './outbox-text.ts';

const now = 1_000_000;
const item = (patch: Partial<OutboxItem>): OutboxItem => ({
  id: 1,
  accountId: 1,
  to: ['ann@example.com'],
  subject: 'Hello',
  state: 'queued',
  error: null,
  sendAfter: now + 8000,
  sentAt: null,
  ...patch,
});

describe('the outbox bar', () => {
  test('names the recipients, the first and how many more', () => {
    expect(recipientsText(['ann@example.com'])).toBe('ann@example.com');
    expect(recipientsText(['ann@example.com', 'bob@example.com'])).toBe('ann@example.com and 1 other');
    expect(recipientsText(['a@x.org', 'b@x.org', 'c@x.org'])).toBe('a@x.org and 2 others');
    expect(recipientsText(['\u202eann@example.com'])).toBe('ann@example.com');
  });

  test('counts down while Undo still works', () => {
    expect(outboxLine(item({}), now)).toBe('Sending to ann@example.com in 8 s');
    expect(outboxLine(item({}), now + 7200)).toBe('Sending to ann@example.com in 1 s');
    expect(canUndo(item({}), now + 7200)).toBe(true);
  });

  test('once due, it is on its way and can no longer be undone', () => {
    expect(outboxLine(item({}), now + 8000)).toBe('Sending to ann@example.com…');
    expect(canUndo(item({}), now + 8000)).toBe(false);
    expect(canUndo(item({ state: 'sending' }), now)).toBe(false);
  });

  test('a failed send says why', () => {
    expect(outboxLine(item({ state: 'failed', error: 'The SMTP server refused it.' }), now)).toBe(
      'Not sent to ann@example.com: The SMTP server refused it.',
    );
  });

  test('a message kept queued by a refused sign-in says what it waits for', () => {
    const waiting = item({ error: 'The provider refused the saved sign-in of "work". Sign in again.' });
    expect(outboxLine(waiting, now + 9000)).toBe(
      'Waiting to send to ann@example.com: The provider refused the saved sign-in of "work". Sign in again.',
    );
    expect(canUndo(waiting, now + 9000)).toBe(false);
  });

  test('after Undo it says the message is back in the drafts, not sent, to edit or discard', () => {
    expect(returnedLine(['ann@example.com', 'bob@example.com'])).toBe(
      'Back in Drafts: not sent to ann@example.com and 1 other. Edit it or discard it there.',
    );
  });

  test('keeps looking only while something is queued or sending', () => {
    expect(outboxBusy([item({ state: 'failed' }), item({ state: 'sent' })])).toBe(false);
    expect(outboxBusy([item({ state: 'sending' })])).toBe(true);
    expect(outboxBusy([item({})])).toBe(true);
  });
});
