// `skimmer summarize SERVICE/MODEL (--thread ID | --doc PATH…)`: a cited summary, or an answer to --question,
// by the same summarizeThread the `summary:thread` channel runs, reached through connectForMail (consent
// first). A thread is read as `mail:thread` reads it (queries.thread); documents are imported as
// `documents:import` imports them.
import { groundedBounds } from '../ai/grounded/bounds.ts';
import { summarizeThread } from '../ai/grounded/long-thread.ts';
import { connectForMail } from '../ai/model-access.ts';
import { mailText } from '../ai/tools/mail-tools.ts';
import type { App } from '../app.ts';
import { DocumentError } from '../documents/document-error.ts';
import { type Chunk, pickChunks, prepareDocuments } from '../documents/documents.ts';
import { MailError } from '../mail/mail-error.ts';
import { prepareQueries } from '../mail/store/queries.ts';
import type { Command, Out } from './command.ts';
import { failureOf, printFailure, UsageError } from './failures.ts';
import { usageSentence } from './flags.ts';
import { modelOf } from './model-arg.ts';

// Each message of a thread is a source named by its id, so a citation leads back to the message.
function threadSourcesOf(app: App, threadId: number) {
  const thread = prepareQueries(app.db).thread(threadId);
  if (!thread) throw new MailError('not_found', 'That conversation is not in the mailbox.');
  return thread.messages.map((m) => ({
    id: `m${m.id}`,
    title: `${m.subject} — ${m.from.name || m.from.address}`,
    text: mailText(m).text,
  }));
}

// Documents are imported (once: the same file is the same document), then cut into chunks named d<doc>c<n>.
// With a question only the chunks that match it are sent; a summary reads them all, in parts if need be.
async function documentSourcesOf(app: App, paths: readonly string[], question: string | undefined, io: Out) {
  const documents = prepareDocuments(app.db, app.places);
  const perDocument: Chunk[][] = [];
  for (const path of paths) {
    // A file it cannot read fails the command as `invalid_request`, in the documents module's sentence.
    const imported = await documents.import(path);
    if (imported.chunks === 0)
      io.err(`${imported.name} has no text to read (a scanned PDF needs OCR first).`);
    const all = documents.chunks(imported.id);
    const relevant = question ? documents.relevant(imported.id, question, groundedBounds.maxSources) : [];
    perDocument.push(question ? (relevant.length > 0 ? relevant : all) : all);
  }
  const chunks = question
    ? pickChunks(perDocument, groundedBounds.maxSources, groundedBounds.allSourcesBytes - 1024)
    : perDocument.flat();
  if (chunks.length === 0) throw new DocumentError('no_text', 'The documents have no text to read.');
  return chunks.map((c) => ({ id: c.id, title: c.title, text: c.text }));
}

export const summarizeCommand: Command = async (app, args, values, io, signal) => {
  const [word, ...extra] = args;
  const threadId = Number(values.thread);
  const docs = values.doc ?? [];
  const byThread = values.thread !== undefined;
  if (
    extra.length > 0 ||
    byThread === docs.length > 0 ||
    (byThread && !(Number.isInteger(threadId) && threadId > 0))
  ) {
    throw new UsageError(usageSentence('summarize'));
  }
  const model = modelOf(app, 'summary', { word, flag: values.model });
  const print = (o: object) => io.out(JSON.stringify(o));
  try {
    const { model: modelName, connection } = await connectForMail(app.services, model);
    const sources = byThread
      ? threadSourcesOf(app, threadId)
      : await documentSourcesOf(app, docs, values.question, io);
    // A thread over the bounds is summarised in parts whose citations still name its messages.
    const result = await summarizeThread(connection, modelName, sources, {
      ...(signal ? { signal } : {}),
      ...(values.question ? { question: values.question } : {}),
    });
    if (values.json) print({ answer: result.answer, citations: result.citations, cited: result.cited });
    else {
      io.out(result.answer);
      io.out(
        result.cited
          ? `\nCited: ${result.sources.map((s) => `[${s.id}] ${s.title}`).join('; ')} (checked to exist, not checked to be true)`
          : '\nUncited draft: the model gave no citations.',
      );
    }
    return 0;
  } catch (e) {
    // Skimmer's sentence, and the (redacted) detail: the bound that was passed, or the provider's words.
    const failure = failureOf(e);
    if (!failure) throw e;
    printFailure(io, values, failure);
    return failure.code === 'invalid_request' ? 2 : 1;
  }
};
