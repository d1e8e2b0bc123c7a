import { describe, expect, test } from 'vitest';
import { AssistantError } from '../ai/assistant-error.ts';
import { AiFailure } from '../ai/protocol/errors.ts';
import { DocumentError } from '../documents/document-error.ts';
import { FileRefusal } from '../files/safe-open.ts';
import { MailFailure } from '../mail/imap/imap-connect.ts';
import { MailError } from '../mail/mail-error.ts';
import { BridgeFailure, toFailure } from './errors.ts';

describe('toFailure', () => {
  test.each([
    ['a bridge handler’s failure', new BridgeFailure('busy', 'Busy.'), { code: 'busy', message: 'Busy.' }],
    [
      'a model service’s failure, with our sentence and not its detail',
      new AiFailure('unauthorized', { providerDetail: 'bad key' }),
      { code: 'unauthorized', message: 'The service did not accept the API key.' },
    ],
    [
      'a message that is not there',
      new MailError('not_found', 'Gone.'),
      { code: 'not_found', message: 'Gone.' },
    ],
    [
      'a folder the model named wrongly',
      new MailError('no_folder', 'No.'),
      { code: 'invalid_request', message: 'No.' },
    ],
    [
      'account settings that fail a rule',
      new MailError('invalid', 'Bad.'),
      { code: 'invalid_request', message: 'Bad.' },
    ],
    [
      'no account that can send',
      new MailError('no_sender', 'None.'),
      { code: 'invalid_request', message: 'None.' },
    ],
    [
      'an action undone already',
      new MailError('wrong_state', 'Done.'),
      { code: 'invalid_request', message: 'Done.' },
    ],
    [
      'a file that is no document',
      new DocumentError('unreadable', 'x.exe'),
      { code: 'invalid_request', message: 'x.exe' },
    ],
    [
      'a document that is not there',
      new DocumentError('not_found', 'Gone.'),
      { code: 'not_found', message: 'Gone.' },
    ],
    [
      'a folder outside the user’s places, for the file browser',
      new FileRefusal('outside', 'Not yours.'),
      { code: 'forbidden', message: 'Not yours.' },
    ],
    [
      'Skimmer’s own data folder, for the file browser',
      new FileRefusal('data_folder', 'Ours.'),
      { code: 'forbidden', message: 'Ours.' },
    ],
    [
      'a folder that is not there',
      new FileRefusal('missing', 'Gone.'),
      { code: 'not_found', message: 'Gone.' },
    ],
    [
      'documents without text',
      new DocumentError('no_text', 'Empty.'),
      { code: 'invalid_request', message: 'Empty.' },
    ],
    [
      'a conversation that is not there',
      new AssistantError('not_found', 'Gone.'),
      { code: 'not_found', message: 'Gone.' },
    ],
    [
      'a model not named as service/model',
      new AssistantError('invalid', 'Name it.'),
      { code: 'invalid_request', message: 'Name it.' },
    ],
    [
      'a triage job already running',
      new AssistantError('busy', 'Running.'),
      { code: 'busy', message: 'Running.' },
    ],
    [
      'mail for a service not allowed it',
      new AssistantError('no_consent', 'Allow it.'),
      { code: 'forbidden', message: 'Allow it.' },
    ],
    [
      'a grant for a send',
      new AssistantError('always_asks', 'Asks.'),
      { code: 'forbidden', message: 'Asks.' },
    ],
    [
      'a mail server out of reach',
      new MailFailure('transport', 'Could not reach the server.', true),
      { code: 'transport', message: 'Could not reach the server.' },
    ],
    [
      'a mail server refusing the sign-in',
      new MailFailure('unauthorized', 'Sign in again.', false),
      { code: 'unauthorized', message: 'Sign in again.' },
    ],
  ])('maps %s to its envelope code', (_name, error, expected) => {
    expect(toFailure(error)).toEqual(expected);
  });

  test('knows nothing of an unexpected exception, so its text never crosses', () => {
    expect(toFailure(new Error('disk I/O error at /home/user/secret'))).toBeNull();
    expect(toFailure('a string')).toBeNull();
  });
});
