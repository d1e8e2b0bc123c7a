// What a question over mail and documents names (issue 7: a thread, chosen messages, documents), loaded: every
// message with its body, oldest first, and each document's chunks that hold the question's words (its opening
// chunks when none does). The request names them by id, never by text (DESIGN §10), so a wrong id throws here,
// before anything is asked. A read of reads/reads.ts: on the read thread in the long-running app, as a thread
// of many long messages or a search of a long document's chunks takes more than a few milliseconds.
import type { MessageView } from '../../../shared/contract/index.ts';
import type { Db } from '../../db/open.ts';
import { DocumentError } from '../../documents/document-error.ts';
import { type Chunk, prepareDocuments } from '../../documents/documents.ts';
import { MailError } from '../../mail/mail-error.ts';
import { prepareQueries } from '../../mail/store/queries.ts';
import { groundedBounds } from './bounds.ts';

export type NamedSources = {
  threadId?: number | undefined;
  messageIds?: readonly number[] | undefined;
  documentIds?: readonly number[] | undefined;
  question: string;
};

/** Plain data, as it crosses from the read thread: the messages by date, then each document's chunks. */
export type LoadedSources = { messages: MessageView[]; perDocument: Chunk[][] };

export function prepareNamedSources(db: Db) {
  const queries = prepareQueries(db);
  const documents = prepareDocuments(db);
  return (r: NamedSources): LoadedSources => {
    const mail = new Map<number, MessageView>();
    if (r.threadId !== undefined) {
      const thread = queries.thread(r.threadId);
      if (!thread) throw new MailError('not_found', 'That conversation is not in the mailbox.');
      for (const m of thread.messages) mail.set(m.id, m);
    }
    for (const id of r.messageIds ?? []) {
      const m = mail.get(id) ?? queries.message(id);
      if (!m) throw new MailError('not_found', 'One of the chosen messages is not in the mailbox.');
      mail.set(id, m);
    }
    const perDocument: Chunk[][] = [];
    for (const id of new Set(r.documentIds ?? [])) {
      if (!documents.document(id))
        throw new DocumentError('not_found', 'One of the chosen documents is not imported.');
      const relevant = documents.relevant(id, r.question, groundedBounds.maxSources);
      // A document none of whose chunks hold the question's words still offers its opening chunks.
      perDocument.push(
        relevant.length > 0 ? relevant : documents.chunks(id).slice(0, groundedBounds.maxSources),
      );
    }
    return { messages: [...mail.values()].sort((a, b) => a.date - b.date || a.id - b.id), perDocument };
  };
}
