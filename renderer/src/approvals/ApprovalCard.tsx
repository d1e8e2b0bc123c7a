import type { ToolEffect } from '../../../shared/contract/index.ts';
import { useApprovalStore } from '../stores/approval-store.ts';
import { type PendingRound, useChatStore } from '../stores/chat-store.ts';
import { ApprovalCallView } from './ApprovalCallView.tsx';
import { allDecided, type Choices, choiceFor } from './approval-answers.ts';

const noChoices: Choices = {};

const riskText: Partial<Record<ToolEffect, string>> = {
  send: 'sends mail',
  delete: 'deletes mail',
};

// The calls of one round that wait for the user (DESIGN §7): nothing of the round runs until they answer.
// The card answers once every call has a decision, or at once with Approve all / Deny all; then the run
// resumes above it. Sending a new message instead declines every open call (Skimmer does that).
export function ApprovalCard({ pending }: { pending: PendingRound }) {
  const choices = useApprovalStore((state) => (state.round === pending.round ? state.choices : noChoices));
  const decideAll = useApprovalStore((state) => state.decideAll);
  const submit = useApprovalStore((state) => state.submit);
  const busy = useChatStore((state) => state.live !== null);
  const error = useChatStore((state) => state.answerError);
  const { calls } = pending;
  const asking = calls.filter((call) => !call.held).length;
  const risks = [...new Set(calls.flatMap((call) => riskText[call.effect] ?? []))];
  const decided = allDecided(calls, choices);

  return (
    <section className="approval-card" data-testid="approval-card" aria-label="Approval needed">
      <h3 className="approval-heading">
        {asking === 1
          ? 'The model wants to do this. Nothing happens until you decide.'
          : `The model wants to do ${asking} things. Nothing happens until you decide.`}
      </h3>
      <ol className="approval-calls">
        {calls.map((call) => (
          <ApprovalCallView
            key={call.id}
            call={call}
            round={pending.round}
            choice={choiceFor(call, choices)}
            disabled={busy}
          />
        ))}
      </ol>
      {error && (
        <p className="warning" role="alert" data-testid="approval-error">
          {error}
        </p>
      )}
      <div className="approval-actions">
        <span className="muted approval-hint">
          {risks.length > 0
            ? `Includes a call that ${risks.join(' and ')}.`
            : 'Writes can be undone afterwards.'}
        </span>
        {decided && error && (
          <button
            type="button"
            data-testid="approval-submit"
            disabled={busy}
            onClick={() => submit(pending.round)}
          >
            Send answers again
          </button>
        )}
        <button
          type="button"
          data-testid="deny-all"
          disabled={busy}
          onClick={() => decideAll(pending.round, 'deny')}
        >
          Deny all
        </button>
        <button
          type="button"
          className={risks.length > 0 ? 'danger' : 'primary'}
          data-testid="approve-all"
          disabled={busy}
          onClick={() => decideAll(pending.round, 'approve')}
        >
          Approve all
        </button>
      </div>
    </section>
  );
}
