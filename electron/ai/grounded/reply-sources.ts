// What a drafted reply reads (issue 17, DESIGN §10 "Drafted replies"): the thread's messages as sources
// within the grounded bounds — the message answered first, then the others newest first, each whole (a long
// one as all its pieces) — and a few of the user's own recent mails as examples of their style. Nothing is cut
// silently: messages left out are counted in a note that names the bound, and a message answered that does
// not fit alone is refused with the bound's sentence.
import { writtenPart } from '../../../shared/compose/thread-facts.ts';
import type { MessageView } from '../../../shared/contract/index.ts';
import type { Db } from '../../db/open.ts';
import { prepareIdentities } from '../../mail/identities.ts';
import { MailError } from '../../mail/mail-error.ts';
import { prepareMessageReads } from '../../mail/store/message-reads.ts';
import { prepareQueries } from '../../mail/store/queries.ts';
import { AiFailure } from '../protocol/errors.ts';
import { groundedBounds, type Source } from './bounds.ts';
import { cutText, type MessageSource, threadSources } from './long-thread.ts';

/** How many of the user's own mails are shown as examples, and how much of each (their own words only). */
const replyExampleBounds = { count: 3, bytes: 1024 } as const;

type ReplyExample = { id: string; text: string };

/** What a drafted reply reads: the thread in order, the message of it answered, the user's instructions. */
export type ReplyRequest = {
  thread: readonly MessageView[];
  answering: number;
  instructions?: string | undefined;
  examples: readonly ReplyExample[];
};

const bytes = (sources: readonly Source[]) =>
  sources.reduce((n, s) => n + Buffer.byteLength(s.text, 'utf8'), 0);

/** The sources for a reply to `answering` (one of `messages`, in thread order), and a note when some are left out. */
export function replySources(
  messages: readonly MessageSource[],
  answering: string,
): { sources: Source[]; note: string | null } {
  // A little under the bound, as long-thread.ts leaves room for each block's id and title lines.
  const budget = groundedBounds.allSourcesBytes - 1024;
  const piecesOf = new Map(messages.map((m) => [m.id, threadSources([m])]));
  const first = piecesOf.get(answering) ?? [];
  if (first.length > groundedBounds.maxSources || bytes(first) > budget) {
    throw new AiFailure('invalid_request', {
      providerDetail: `The message answered is over the ${groundedBounds.maxSources} sources and ${groundedBounds.allSourcesBytes / 1024} KiB a grounded request may hold, so no reply can be drafted from it.`,
    });
  }
  const chosen = new Set([answering]);
  let count = first.length;
  let size = bytes(first);
  for (const m of [...messages].reverse()) {
    const pieces = piecesOf.get(m.id) ?? [];
    if (chosen.has(m.id)) continue;
    if (count + pieces.length > groundedBounds.maxSources || size + bytes(pieces) > budget) continue;
    chosen.add(m.id);
    count += pieces.length;
    size += bytes(pieces);
  }
  const left = messages.length - chosen.size;
  return {
    sources: messages.filter((m) => chosen.has(m.id)).flatMap((m) => piecesOf.get(m.id) ?? []),
    note:
      left === 0
        ? null
        : `To stay within the bounds (${groundedBounds.maxSources} sources, ${groundedBounds.allSourcesBytes / 1024} KiB together), ${left} of ${messages.length} messages of the thread were left out, the oldest first.`,
  };
}

/** The user's own recent mails outside this thread (local mail only, from one of your addresses), as examples. */
function prepareReplyExamples(db: Db) {
  const identities = prepareIdentities(db);
  const mail = prepareMessageReads(db);
  /** Examples from outside `threadId`, none from `drafts` (folder ids): what was sent, not what was drafted. */
  return (threadId: number, drafts: readonly number[]): ReplyExample[] => {
    const yours = identities.list().map((i) => i.address.toLowerCase());
    if (yours.length === 0) return [];
    const seen = new Set<string>();
    const examples: ReplyExample[] = [];
    for (const row of mail.recentFrom(yours, threadId, drafts, 20)) {
      // The same mail in two folders (Sent and All Mail) is one example.
      if (seen.has(row.messageId)) continue;
      seen.add(row.messageId);
      // Only what the user wrote: the quote and signature below it are others' words and the user's details.
      const own = writtenPart(row.bodyText).trim();
      if (own === '') continue;
      const [text = ''] = cutText(own, replyExampleBounds.bytes);
      examples.push({ id: `example${examples.length + 1}`, text });
      if (examples.length === replyExampleBounds.count) break;
    }
    return examples;
  };
}

/** What a reply to message `messageId` reads: its thread, in order, and your examples; MailError when absent. */
export function prepareReplyRequests(db: Db) {
  const queries = prepareQueries(db);
  const examples = prepareReplyExamples(db);
  return (messageId: number, instructions: string | undefined): ReplyRequest => {
    const answered = queries.message(messageId);
    const thread = answered && queries.thread(answered.threadId);
    if (!answered || !thread) throw new MailError('not_found', `There is no message with id ${messageId}.`);
    // The user's drafts (a saved draft is read back from the server's Drafts) were never sent: not the thread's.
    const drafts = new Set(
      queries
        .folders()
        .filter((f) => f.place === 'drafts')
        .map((f) => f.id),
    );
    return {
      thread: thread.messages.filter((m) => m.id === messageId || !drafts.has(m.folderId)),
      answering: messageId,
      instructions,
      examples: examples(answered.threadId, [...drafts]),
    };
  };
}
