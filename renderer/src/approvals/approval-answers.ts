// The user's choices on an approval card, and the answers they become (`chat:answer`). Every call of the
// round gets an answer, held ones included (the contract: a held call runs unless the user denies it, so its
// choice starts as "approve"). Pure; tested in approval-answers.test.ts.
import type { ApprovalCall, CallAnswer } from '../../../shared/contract/index.ts';

export type GrantChoice = NonNullable<CallAnswer['grant']>;
export type Decision = CallAnswer['decision'];
export type CallChoice = { decision: Decision | null; reason: string; grant: GrantChoice };
export type Choices = Readonly<Record<string, CallChoice>>;

export function choiceFor(call: ApprovalCall, choices: Choices): CallChoice {
  return choices[call.id] ?? { decision: call.held ? 'approve' : null, reason: '', grant: 'once' };
}

// SECURITY: choices are kept per call id. Should two calls of a round ever share one (Skimmer's main process
// never sends that, issue 13), no answer is made at all, rather than one decision standing for both.
function distinct(calls: readonly ApprovalCall[]): boolean {
  return new Set(calls.map((call) => call.id)).size === calls.length;
}

export function allDecided(calls: readonly ApprovalCall[], choices: Choices): boolean {
  return (
    calls.length > 0 && distinct(calls) && calls.every((call) => choiceFor(call, choices).decision !== null)
  );
}

// `all` answers every call the same way (Approve all / Deny all); reasons and grant choices still apply.
export function answersFor(calls: readonly ApprovalCall[], choices: Choices, all?: Decision): CallAnswer[] {
  if (!distinct(calls)) return [];
  return calls.map((call) => {
    const choice = choiceFor(call, choices);
    const decision = all ?? choice.decision ?? 'deny';
    // SECURITY: an answer names its call by Skimmer's id and the hash of the arguments shown on the card.
    const answer: CallAnswer = { id: call.id, argsHash: call.argsHash, decision };
    const reason = choice.reason.trim();
    if (decision === 'deny' && reason !== '') answer.reason = reason;
    // SECURITY: a wider grant is only ever sent for a call Skimmer offered it for (never send or delete).
    if (decision === 'approve' && call.grantable && choice.grant !== 'once') answer.grant = choice.grant;
    return answer;
  });
}
