// The facts a store tells the other domains (DESIGN §12). A store announces one and goes on; what it means
// elsewhere (a cancelled send is a draft again, so the drafts are read) is decided in reactions.ts, the one
// module that knows every store. So no store imports another in a circle, and no store needs another to
// exist when it is imported. Only what no store state shows is an event here; a change a store's state does
// show (a run ended, an undo finished) is followed there with `subscribe`.
import type { TriageJobView } from '../../../shared/contract/index.ts';

export type StoreEvent =
  // A chat run ended, however it ended: its approved calls may have changed mail or queued a send.
  | { type: 'chat_run_ended' }
  // An approved send_mail just went into the outbox, while the run goes on.
  | { type: 'chat_mail_queued' }
  // The composer's draft went into the outbox.
  | { type: 'draft_sent' }
  // The composer made a draft, or closed one it discarded or saved: the drafts list is not what it was.
  | { type: 'drafts_changed' }
  // A message left the outbox for the drafts (Undo or "Back to drafts", on this page or another one).
  | { type: 'outbox_left_for_drafts'; id: number }
  // The long-running app started a question set's job on new mail, or a job's run ended (its answers are new;
  // after a Stop, the answers that were on their way are counted by then).
  | { type: 'triage_job_changed'; job: TriageJobView }
  // The outbox bar's "Open draft" on the message the last Undo gave back.
  | { type: 'returned_draft_opened'; draft: number };

type EventOf<T extends StoreEvent['type']> = Extract<StoreEvent, { type: T }>;
type Listener = (event: StoreEvent) => unknown;

const listeners = new Map<StoreEvent['type'], Set<Listener>>();

/** Tells every listener of the event's type; resolves once what they started has finished. */
export async function announce(event: StoreEvent): Promise<void> {
  const current = [...(listeners.get(event.type) ?? [])];
  await Promise.all(current.map((listener) => listener(event)));
}

/** Listens for one type of event until the returned function is called. */
export function onStoreEvent<T extends StoreEvent['type']>(
  type: T,
  listener: (event: EventOf<T>) => unknown,
): () => void {
  const wrapped: Listener = (event) => listener(event as EventOf<T>);
  let set = listeners.get(type);
  if (!set) {
    set = new Set();
    listeners.set(type, set);
  }
  set.add(wrapped);
  return () => {
    listeners.get(type)?.delete(wrapped);
  };
}
