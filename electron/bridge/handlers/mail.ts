// The mail channels of the bridge: folders and threads read the store (the search is search.ts's); mark read, star, archive, trash
// and undo change it (each undoable); `mail:import` streams an import job's progress.
import type { StreamEvent } from '../../../shared/contract/index.ts';
import type { Places } from '../../files/safe-open.ts';
import type { ImportJob } from '../../mail/import/import-job.ts';
import { MailError } from '../../mail/mail-error.ts';
import type { prepareContacts } from '../../mail/store/contacts.ts';
import type { prepareQueries } from '../../mail/store/queries.ts';
import type { prepareMailActions } from '../../mail/store/undo.ts';
import type { WriteBack } from '../../mail/store/write-back.ts';
import type { ReadFn } from '../../reads/reads.ts';
import type { Handlers } from '../dispatch.ts';
import type { StreamHub } from '../streams.ts';

type Deps = {
  queries: ReturnType<typeof prepareQueries>;
  /** A page of a folder's or view's conversations: on the read thread in the long-running app (reads/). */
  threadPage: ReadFn<'threads'>;
  /** A conversation with all its messages and bodies: on the read thread in the long-running app. */
  thread: ReadFn<'thread'>;
  contacts: ReturnType<typeof prepareContacts>;
  mailActions: ReturnType<typeof prepareMailActions>;
  writeBack: WriteBack;
  streams: StreamHub;
  importFiles: (paths: readonly string[], onEvent: (e: StreamEvent) => void, from: Places) => ImportJob;
  // The user's own places, and the demo mailbox's: the one folder outside them an import may read.
  places: Places;
  demo: { mailbox: string; places: Places };
};

export function mailHandlers(
  deps: Deps,
): Pick<
  Handlers,
  | 'mail:folders'
  | 'mail:threads'
  | 'mail:thread'
  | 'mail:contacts'
  | 'mail:import'
  | 'mail:markRead'
  | 'mail:star'
  | 'mail:archive'
  | 'mail:trash'
  | 'mail:retrySync'
  | 'mail:undoable'
  | 'mail:undo'
> {
  const { queries, mailActions, streams } = deps;
  return {
    'mail:folders': () => queries.folders(),
    'mail:threads': (r) => deps.threadPage(r.folderId, r.offset, r.limit, r.view),
    'mail:thread': async (r) => {
      const t = await deps.thread(r.threadId);
      if (!t) throw new MailError('not_found', 'That conversation is not in the mailbox.');
      return t;
    },
    'mail:contacts': (r) => deps.contacts.find(r.prefix, r.limit),
    'mail:import': (r) => {
      const demo = 'demo' in r;
      let job: ImportJob | undefined;
      const streamId = streams.start(() => job?.cancel());
      // Events are emitted after this call returns its streamId (the worker needs a moment to start). The demo
      // mailbox ships with Skimmer, so it is the one place outside the user's own that may be read, and only here.
      job = deps.importFiles(
        demo ? [deps.demo.mailbox] : r.paths,
        (e) => streams.emit(streamId, e, e.type !== 'import_progress'),
        demo ? deps.demo.places : deps.places,
      );
      return { streamId };
    },
    'mail:markRead': (r) => ({ changed: queries.markRead(r.ids, r.read) }),
    'mail:star': (r) => mailActions.star(r.ids, r.starred),
    // A message id that is not there is the page's mistake: `not_found` (MailError, bridge/errors.ts).
    'mail:archive': (r) => mailActions.moveToSpecial(r.ids, 'archive'),
    'mail:trash': (r) => mailActions.moveToSpecial(r.ids, 'trash'),
    'mail:retrySync': (r) => ({ queued: deps.writeBack.retry(r.id) }),
    'mail:undoable': (r) => mailActions.undoable(r.limit),
    // The newest `count` actions, or exactly the one the page names by id (the Undo bar's). An id that is
    // unknown or already undone is said plainly, never a silent no-op.
    'mail:undo': (r) => {
      if ('count' in r) return { undone: mailActions.undo(r.count) };
      // An unknown id is `not_found`, one undone already `invalid_request` (MailError, bridge/errors.ts).
      return { undone: [mailActions.undoOne(r.id)] };
    },
  };
}
