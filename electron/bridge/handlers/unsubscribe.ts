// The `unsubscribe:*` channels (issue 29 §3): the reader's Unsubscribe button and what it does once confirmed. A
// way that fails throws UnsubscribeError (or MailError: no account can send), which bridge/errors.ts maps.
import type { prepareUnsubscribe } from '../../mail/unsubscribe/unsubscribe.ts';
import type { Handlers } from '../dispatch.ts';

export function unsubscribeHandlers(deps: {
  unsubscribe: ReturnType<typeof prepareUnsubscribe>;
}): Pick<Handlers, 'unsubscribe:options' | 'unsubscribe:run'> {
  const { unsubscribe } = deps;
  return {
    'unsubscribe:options': (r) => unsubscribe.options(r.message),
    'unsubscribe:run': (r) => unsubscribe.run(r.message),
  };
}
