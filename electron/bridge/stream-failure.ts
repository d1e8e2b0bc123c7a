// The error event that ends a stream of a grounded answer or a drafted reply: Skimmer's sentence with the
// service's own words after it (redacted: the bound passed, or the provider's detail), or for anything not
// mapped a sentence pointing to the log, where the failure is written.
import type { StreamEvent } from '../../shared/contract/index.ts';
import { AiFailure } from '../ai/protocol/errors.ts';
import type { Log } from '../log.ts';
import { toFailure } from './errors.ts';

export function streamFailure(e: unknown, log: Log, name: string): StreamEvent {
  const failure = toFailure(e);
  if (failure) {
    const detail = e instanceof AiFailure && e.providerDetail ? ` ${e.providerDetail}` : '';
    return { type: 'error', error: { ...failure, message: `${failure.message}${detail}`.slice(0, 500) } };
  }
  log.error(name, e);
  return {
    type: 'error',
    error: { code: 'internal', message: 'Something went wrong inside Skimmer; the details are in the log.' },
  };
}
