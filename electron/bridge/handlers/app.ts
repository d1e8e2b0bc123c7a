// The app channels of the bridge: what Skimmer is (`app:info`) and opening a link the user confirmed in the
// system browser (`link:open`), and the desktop's new-mail notification (`app:notify`).
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
  // The desktop's notifications; browser mode has none (the page shows the browser's).
  notify: ((n: { title: string; body: string }) => boolean) | undefined;
};

// SECURITY: a notification is the system's own surface, outside the page's marks for untrusted text; the page
// sends mail's senders and subjects already made plain, and what arrives here is made plain again (no controls
// but the body's line breaks, no format characters such as direction overrides), whatever sent it.
const unshownInTitle = /[\p{Cc}\p{Cf}\u2028\u2029]/gu;
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is removed
const unshownInBody = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\p{Cf}\u2028\u2029]/gu;

export function appHandlers(deps: Deps): Pick<Handlers, 'app:info' | 'link:open' | 'app:notify'> {
  return {
    'app:info': () => ({
      version: deps.version,
      mode: deps.mode,
      vault: deps.vault.info,
      messages: deps.queries.messageCount(),
      demoAvailable: existsSync(deps.demoMailbox),
    }),
    'app:notify': (r) => ({
      shown:
        deps.notify?.({
          title: r.title.replace(unshownInTitle, ' '),
          body: r.body.replace(unshownInBody, ' '),
        }) ?? false,
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
