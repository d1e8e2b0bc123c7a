import { describe, expect, test } from 'vitest';
import { AiFailure } from '../ai/protocol/errors.ts';
import { BridgeFailure, toFailure } from './errors.ts';

describe('toFailure', () => {
  test.each([
    ['a bridge handler’s failure', new BridgeFailure('busy', 'Busy.'), { code: 'busy', message: 'Busy.' }],
    [
      'a model service’s failure, with our sentence and not its detail',
      new AiFailure('unauthorized', { providerDetail: 'bad key' }),
      { code: 'unauthorized', message: 'The service did not accept the API key.' },
    ],
  ])('maps %s to its envelope code', (_name, error, expected) => {
    expect(toFailure(error)).toEqual(expected);
  });

  test('knows nothing of an unexpected exception, so its text never crosses', () => {
    expect(toFailure(new Error('disk I/O error at /home/user/secret'))).toBeNull();
    expect(toFailure('a string')).toBeNull();
  });
});
