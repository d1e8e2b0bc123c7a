// What the assistant side refuses (services, conversations, grants, question sets, triage jobs), with the
// sentence to show. The reason is a closed set; only electron/bridge/errors.ts turns it into an envelope
// code. A model service's own failure is an AiFailure (protocol/errors.ts), not this.
import { DomainError } from '../domain-error.ts';

export type AssistantErrorReason =
  /** A service, conversation, message, grant, question set or triage job named by id or name is not there. */
  | 'not_found'
  /** A request that breaks a rule: a base URL, a name taken, a model not named as service/model, bad questions. */
  | 'invalid'
  /** The triage job is already running. */
  | 'busy'
  /** SECURITY: mail or document text would go to a service the user has not allowed (DESIGN §5). */
  | 'no_consent'
  /** A send or delete cannot be allowed in advance: Skimmer always asks (DESIGN §7). */
  | 'always_asks';

export class AssistantError extends DomainError<AssistantErrorReason> {}
