// The one table from the errors Skimmer's code throws to the bridge's envelope codes (DESIGN §2, STYLE.md
// "Errors are values at the edges"). Domain code throws its own typed errors and knows nothing of the
// bridge; dispatch, the stream handlers and the CLI all map them here, so a failure reads the same wherever
// it surfaces. What the table does not know is a bug: its caller logs it and says `internal`, never its text.
import type { BridgeError, ErrorCode } from '../../shared/contract/index.ts';
import type { AssistantErrorReason } from '../ai/assistant-error.ts';
import { AiFailure } from '../ai/protocol/errors.ts';
import type { DocumentErrorReason } from '../documents/document-error.ts';
import type { DomainError } from '../domain-error.ts';
import type { RefusalReason } from '../files/safe-open.ts';
import type { AttachmentErrorReason } from '../mail/attachments/attachment-error.ts';
import type { InvitationErrorReason } from '../mail/calendar/invitation-error.ts';
import type { IdentityErrorReason } from '../mail/identity-error.ts';
import { MailFailure } from '../mail/imap/imap-connect.ts';
import type { MailErrorReason } from '../mail/mail-error.ts';
import type { OAuthErrorReason } from '../mail/oauth/oauth-error.ts';
import type { UnsubscribeErrorReason } from '../mail/unsubscribe/unsubscribe-error.ts';
import { type DomainKind, type domainErrors, domainKind } from '../thread-errors.ts';

/** Thrown by a bridge handler for an expected failure, with a sentence meant for the user. */
export class BridgeFailure extends Error {
  readonly code: ErrorCode;
  constructor(code: ErrorCode, message: string) {
    super(message);
    this.code = code;
  }
}

const assistantCodes: Record<AssistantErrorReason, ErrorCode> = {
  not_found: 'not_found',
  invalid: 'invalid_request',
  busy: 'busy',
  no_consent: 'forbidden',
  always_asks: 'forbidden',
};

const mailCodes: Record<MailErrorReason, ErrorCode> = {
  not_found: 'not_found',
  no_folder: 'invalid_request',
  invalid: 'invalid_request',
  no_sender: 'invalid_request',
  wrong_state: 'invalid_request',
};

// A sign-in's failure (issue 28): what the person or the provider refused is `forbidden`, settings that cannot
// be used the request's fault, a provider out of reach `io`, a sign-in nobody finished in time `cancelled`.
const oauthCodes: Record<OAuthErrorReason, ErrorCode> = {
  invalid: 'invalid_request',
  discovery: 'invalid_request',
  state: 'forbidden',
  denied: 'forbidden',
  token: 'forbidden',
  refused: 'forbidden',
  timeout: 'cancelled',
  cancelled: 'cancelled',
  not_found: 'not_found',
  unreachable: 'io',
};

const documentCodes: Record<DocumentErrorReason, ErrorCode> = {
  unreadable: 'invalid_request',
  not_found: 'not_found',
  no_text: 'invalid_request',
};

// A folder the file browser may not show (files:browse): outside the user's places is the request's fault, as is
// anything else the page named; a folder the system will not let Skimmer read is an io failure.
const refusalCodes: Record<RefusalReason, ErrorCode> = {
  missing: 'not_found',
  link_loop: 'invalid_request',
  system: 'forbidden',
  data_folder: 'forbidden',
  outside: 'forbidden',
  not_regular: 'invalid_request',
  too_large: 'invalid_request',
  unreadable: 'io',
};

// An invitation Skimmer will not read or answer (issue 29 §2) is the mail's fault, so the request's: too large,
// malformed, too many people, or not something that can be answered.
const invitationCodes: Record<InvitationErrorReason, ErrorCode> = {
  too_large: 'invalid_request',
  malformed: 'invalid_request',
  unsupported: 'invalid_request',
  too_many: 'invalid_request',
};

const identityCodes: Record<IdentityErrorReason, ErrorCode> = {
  invalid_address: 'invalid_request',
  invalid_name: 'invalid_request',
  invalid_signature: 'invalid_request',
  account_address: 'invalid_request',
};

// An attachment's bytes (issue 29 §1): none of that number is not_found; a file or server that cannot give
// them now, or gives another message's, is io (the person can retry, or re-import); too large is the request's.
const attachmentCodes: Record<AttachmentErrorReason, ErrorCode> = {
  not_found: 'not_found',
  unreadable: 'io',
  changed: 'io',
  gone: 'not_found',
  server: 'io',
  too_large: 'invalid_request',
};

// An unsubscribe that did not happen (issue 29 §3): no such message is not_found, a message offering no way the
// request's fault; the list's server refusing, redirecting elsewhere or out of reach is io (the person may retry,
// or unsubscribe another way), its sentence naming the host.
const unsubscribeCodes: Record<UnsubscribeErrorReason, ErrorCode> = {
  not_found: 'not_found',
  none: 'invalid_request',
  refused: 'io',
  redirect: 'io',
  unreachable: 'io',
};

// The code of each kind of the domain's errors (thread-errors.ts's registry): a
// new class in the registry does not compile until it has its line here.
const domainCodes: { [K in DomainKind]: (e: InstanceType<(typeof domainErrors)[K]>) => ErrorCode } = {
  assistant: (e) => assistantCodes[e.reason],
  mail: (e) => mailCodes[e.reason],
  oauth: (e) => oauthCodes[e.reason],
  // A query names what it could not read (an unknown operator, a bad date) or why it costs too much: the
  // request's fault; one a newer search replaced was cancelled.
  search: (e) => (e.reason === 'cancelled' ? 'cancelled' : 'invalid_request'),
  identity: (e) => identityCodes[e.reason],
  // Not an address is the request's fault; nothing found is a not_found whose sentence says what each source said.
  discovery: (e) => (e.reason === 'invalid_address' ? 'invalid_request' : 'not_found'),
  document: (e) => documentCodes[e.reason],
  file: (e) => refusalCodes[e.reason],
  invitation: (e) => invitationCodes[e.reason],
  attachment: (e) => attachmentCodes[e.reason],
  unsubscribe: (e) => unsubscribeCodes[e.reason],
};

/** The envelope's `{code, message}` for an expected failure; null for anything else (a bug, to be logged). */
export function toFailure(e: unknown): BridgeError | null {
  if (e instanceof BridgeFailure) return { code: e.code, message: e.message };
  const typed = domainKind(e);
  if (typed) {
    const { kind, error } = typed;
    const code = (domainCodes[kind] as (error: DomainError) => ErrorCode)(error);
    return { code, message: error.message };
  }
  // The sentence is aiErrorMessages[code]; the redacted provider detail is the caller's to add or not.
  if (e instanceof AiFailure) return { code: e.code, message: e.message };
  // A mail server out of reach, refusing the sign-in or too slow (a folder created, a Trash emptied): its codes are
  // the envelope's own, and the sentence is Skimmer's (imap-connect.ts), never the server's text.
  if (e instanceof MailFailure) return { code: e.code, message: e.message };
  return null;
}
