// The app channels of the bridge: what Skimmer is (`app:info`) and opening a link the user confirmed in the
// system browser (`link:open`).
import { existsSync } from 'node:fs';
import { checkExternalUrl } from '../../external-url.ts';
import type { prepareQueries } from '../../mail/store/queries.ts';
import type { KeyVault } from '../../secrets/key-vault.ts';
import type { Handlers } from '../dispatch.ts';
import { BridgeFailure } from '../errors.ts';

type Deps = {
  version: string;
  mode: 'desktop' | 'browser';
  vault: KeyVault;
  queries: ReturnType<typeof prepareQueries>;
  demoMailbox: string;
  // Browser mode has none: the page opens the link itself.
  openExternal: ((url: string) => Promise<void>) | undefined;
};

export function appHandlers(deps: Deps): Pick<Handlers, 'app:info' | 'link:open'> {
  return {
    'app:info': () => ({
      version: deps.version,
      mode: deps.mode,
      vault: deps.vault.info,
      messages: deps.queries.messageCount(),
      demoAvailable: existsSync(deps.demoMailbox),
    }),
    'link:open': async (r) => {
      const checked = checkExternalUrl(r.url);
      if (!checked.ok) throw new BridgeFailure('invalid_request', checked.reason);
      if (!deps.openExternal) return { opened: false, url: checked.url };
      await deps.openExternal(checked.url);
      return { opened: true, url: checked.url };
    },
  };
}
