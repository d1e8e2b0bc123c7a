// The `identity:*` channels (DESIGN §11): your addresses, for settings and `skimmer identity`. A change that
// cannot be made throws IdentityError, which the one table (bridge/errors.ts) makes `invalid_request`.

import type { prepareIdentities } from '../../mail/identities.ts';
import type { Handlers } from '../dispatch.ts';

type IdentityChannel = 'identity:list' | 'identity:add' | 'identity:remove';

export function identityHandlers(deps: {
  identities: ReturnType<typeof prepareIdentities>;
}): Pick<Handlers, IdentityChannel> {
  const { identities } = deps;
  return {
    'identity:list': () => identities.list(),
    'identity:add': (r) => identities.add(r),
    'identity:remove': (r) => ({ removed: identities.remove(r.address) }),
  };
}
