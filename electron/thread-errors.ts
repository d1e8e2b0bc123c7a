// A typed error of the domain crossing from a worker thread to the main one (the read thread, the triage
// thread): what structured clone would lose is its class, so it crosses as the class's name, its reason and its
// sentence, and is made again on this side, where the bridge maps it exactly as one thrown here
// (bridge/errors.ts). Anything else crosses as its message only, for the log.
import { AssistantError } from './ai/assistant-error.ts';
import { DocumentError } from './documents/document-error.ts';
import { MailError } from './mail/mail-error.ts';
import { SearchQueryError } from './mail/store/search.ts';

export type CrossedError = {
  kind: 'search' | 'assistant' | 'document' | 'mail';
  reason: string;
  message: string;
};

/** On the worker: the typed error as it can cross, or undefined for any other. */
export function crossed(e: unknown): CrossedError | undefined {
  if (e instanceof SearchQueryError) return { kind: 'search', reason: e.reason, message: e.message };
  if (e instanceof AssistantError) return { kind: 'assistant', reason: e.reason, message: e.message };
  if (e instanceof DocumentError) return { kind: 'document', reason: e.reason, message: e.message };
  if (e instanceof MailError) return { kind: 'mail', reason: e.reason, message: e.message };
  return undefined;
}

/** On the main thread: the error as the worker threw it. */
export function rebuilt(typed: CrossedError): Error {
  if (typed.kind === 'search')
    return new SearchQueryError(typed.reason as SearchQueryError['reason'], typed.message);
  if (typed.kind === 'assistant')
    return new AssistantError(typed.reason as AssistantError['reason'], typed.message);
  if (typed.kind === 'document')
    return new DocumentError(typed.reason as DocumentError['reason'], typed.message);
  return new MailError(typed.reason as MailError['reason'], typed.message);
}
