// The domain's typed errors, in one registry (issue 30), and how one crosses from a worker thread to the main
// one (the read thread, the triage thread): what structured clone would lose is its class, so it crosses as its
// kind, its reason and its sentence, and is made again on this side, where the bridge maps it exactly as one
// thrown here (bridge/errors.ts maps every kind of this registry, checked by its type). Anything else crosses
// as its message only, for the log.
import { AssistantError } from './ai/assistant-error.ts';
import { DocumentError } from './documents/document-error.ts';
import type { DomainError } from './domain-error.ts';
import { FileRefusal } from './files/safe-open.ts';
import { AttachmentError } from './mail/attachments/attachment-error.ts';
import { DiscoveryError } from './mail/autoconfig/discovery-error.ts';
import { InvitationError } from './mail/calendar/invitation-error.ts';
import { IdentityError } from './mail/identity-error.ts';
import { MailError } from './mail/mail-error.ts';
import { OAuthError } from './mail/oauth/oauth-error.ts';
import { SearchQueryError } from './mail/store/search-query.ts';
import { UnsubscribeError } from './mail/unsubscribe/unsubscribe-error.ts';

/** Every class of the domain's expected failures, by its kind. */
export const domainErrors = {
  search: SearchQueryError,
  assistant: AssistantError,
  document: DocumentError,
  mail: MailError,
  identity: IdentityError,
  file: FileRefusal,
  oauth: OAuthError,
  discovery: DiscoveryError,
  invitation: InvitationError,
  attachment: AttachmentError,
  unsubscribe: UnsubscribeError,
} as const;

export type DomainKind = keyof typeof domainErrors;
type DomainClass = (typeof domainErrors)[DomainKind];

/** A typed error of the domain as it crosses a thread: plain data. */
export type CrossedError = { kind: DomainKind; reason: string; message: string };

const kinds = Object.entries(domainErrors) as [DomainKind, DomainClass][];

/** The registry's kind of a typed error, with the error as its class; undefined for any other. */
export function domainKind(e: unknown): { kind: DomainKind; error: DomainError } | undefined {
  for (const [kind, Class] of kinds) if (e instanceof Class) return { kind, error: e };
  return undefined;
}

/** On the worker: the typed error as it can cross, or undefined for any other. */
export function crossed(e: unknown): CrossedError | undefined {
  const typed = domainKind(e);
  return typed ? { kind: typed.kind, reason: typed.error.reason, message: typed.error.message } : undefined;
}

/** On the main thread: the error as the worker threw it. */
export function rebuilt(typed: CrossedError): Error {
  const Class = domainErrors[typed.kind] as new (reason: string, message: string) => DomainError;
  return new Class(typed.reason, typed.message);
}

/** How a worker says a call failed: a typed error as its kind, anything else as its text for the log. */
export type Failure = { typed?: CrossedError; message: string };

/** On the worker: the failure of a call, as it can cross. */
export function failureOf(e: unknown): Failure {
  const typed = crossed(e);
  if (typed) return { typed, message: typed.message };
  return { message: e instanceof Error ? (e.stack ?? e.message) : String(e) };
}

/** On the main thread: the error a worker's failure stands for. */
export function errorOf(failure: Failure): Error {
  return failure.typed ? rebuilt(failure.typed) : new Error(failure.message);
}
