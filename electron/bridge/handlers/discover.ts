// `account:discover` (DESIGN §11): the settings found from an address, for the account form and `skimmer account
// discover`. Nothing is stored and nothing logs in; a refusal is a DiscoveryError, which bridge/errors.ts maps.
import { type DiscoverDeps, discover } from '../../mail/autoconfig/discover.ts';
import type { Handlers } from '../dispatch.ts';

export function discoverHandlers(deps: DiscoverDeps = {}): Pick<Handlers, 'account:discover'> {
  return {
    'account:discover': (r) => discover(r.address, deps),
  };
}
