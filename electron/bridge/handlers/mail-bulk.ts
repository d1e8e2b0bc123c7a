// The channels that act on several conversations at once (shared/contract/mail-bulk.ts): thin calls into
// mail/store/bulk.ts, which resolves the selection and changes it in one transaction, and into the selection's
// labels, a read (mail/store/selection-labels.ts, on the read thread in the long-running app).
import type { prepareBulk } from '../../mail/store/bulk.ts';
import type { ReadFn } from '../../reads/reads.ts';
import type { Handlers } from '../dispatch.ts';

export function mailBulkHandlers(deps: {
  bulk: ReturnType<typeof prepareBulk>;
  selectionLabels: ReadFn<'selectionLabels'>;
  searchThreads: ReadFn<'searchThreads'>;
}): Pick<Handlers, 'mail:bulk' | 'mail:selectionLabels'> {
  return {
    // An unknown folder or conversation is `not_found`, more than the bound `invalid_request` (MailError).
    'mail:bulk': async (r) => {
      const { scope, threads } = r.selection;
      if (threads || !('query' in scope)) return deps.bulk.apply(r.selection, r.action);
      // SECURITY: "all that match this search" reads every match; the read thread does (with its deadline), and
      // the transaction on the main connection gets the conversations' ids, so no search of the user's runs there.
      const matching = await deps.searchThreads(scope.query);
      return deps.bulk.apply({ scope, threads: matching }, r.action);
    },
    'mail:selectionLabels': (r) => deps.selectionLabels(r.selection),
  };
}
