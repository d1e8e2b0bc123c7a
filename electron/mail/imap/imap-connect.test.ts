import { expect, test } from 'vitest';
import { mailFailure } from './imap-connect.ts';

// What imapflow and nodemailer throw, reduced to the fields mailFailure reads.
test.each([
  [
    'a refused password',
    { authenticationFailed: true, serverResponseCode: 'AUTHENTICATIONFAILED' },
    'unauthorized',
    false,
  ],
  ['an SMTP 535', { code: 'EAUTH' }, 'unauthorized', false],
  [
    'a login refused for too many connections',
    { authenticationFailed: true, serverResponseCode: 'LIMIT' },
    'transport',
    true,
  ],
  [
    'a login refused while a backend is down',
    { authenticationFailed: true, serverResponseCode: 'UNAVAILABLE' },
    'transport',
    true,
  ],
  ['a refused connection', { code: 'ECONNREFUSED' }, 'transport', true],
  ['a timeout', { code: 'ETIMEDOUT' }, 'timeout', true],
  ['a dropped connection', { code: 'NoConnection' }, 'transport', true],
  ['a bad certificate', { code: 'DEPTH_ZERO_SELF_SIGNED_CERT' }, 'transport', false],
  ['anything else', { message: 'odd' }, 'io', true],
])('%s is %s, retryable: %s', (_name, error, code, retryable) => {
  const f = mailFailure(error, 'the mail server imap.example.com');
  expect({ code: f.code, retryable: f.retryable }).toEqual({ code, retryable });
  expect(f.message).toContain('imap.example.com');
});
