import { useState } from 'react';
import type { ApprovalCall, ToolEffect } from '../../../shared/contract/index.ts';
import { revealHidden } from '../../../shared/reveal-hidden.ts';
import { prettyArgs } from '../chat/tool-call-summary.ts';
import { useApprovalStore } from '../stores/approval-store.ts';
import type { CallChoice, GrantChoice } from './approval-answers.ts';
import { argumentRows, unnamedElsewhere, unnamedIn } from './call-arguments.ts';
import { FromEmailMark } from './FromEmailMark.tsx';

const effectText: Record<ToolEffect, string> = {
  read: 'Reads mail',
  write: 'Changes mail (can be undone)',
  send: 'Sends mail',
  delete: 'Deletes mail',
};

const grantText: Record<GrantChoice, string> = {
  once: 'Just this once',
  conversation: 'For this conversation',
  always: 'Always',
};

type Props = {
  call: ApprovalCall;
  round: number;
  choice: CallChoice;
  disabled: boolean;
  // A call that is answered on its own (an outside agent's request, DESIGN §13): a decision goes straight
  // here, and there is no reason to give a model nor a grant to choose.
  onDecide?: (decision: 'approve' | 'deny') => void;
  // The mark for an address or link the user never wrote, when it may come from elsewhere than an email.
  unnamedText?: string;
};

// One call on the approval card: what it will do in Skimmer's words (the preview), the marks for whatever in
// it came from an email, the raw arguments on request, and the decision. Every string from the model or the
// mail is React text. SECURITY: what will be sent is shown whole, so a character that draws nothing (a tag
// character, a zero-width or direction control) is a visible ⟦mark⟧ naming it, never removed (issue 27).
const shown = (text: string) => revealHidden(text, { oneLine: true }).text;
export function ApprovalCallView({ call, round, choice, disabled, onDecide, unnamedText }: Props) {
  const [showArgs, setShowArgs] = useState(false);
  const edit = useApprovalStore((state) => state.edit);
  const decideInRound = useApprovalStore((state) => state.decide);
  const decide = (_: number, id: string, decision: 'approve' | 'deny') =>
    onDecide ? onDecide(decision) : decideInRound(round, id, decision);
  const { fromUntrusted, notNamedByUser } = call.provenance;
  const marked = argumentRows(call.args, call.provenance).filter((row) => row.fromEmail.length > 0);
  const elsewhere = unnamedElsewhere(call.preview.lines, notNamedByUser);
  const risky = call.effect === 'send' || call.effect === 'delete';
  const fromEmail = fromUntrusted.length > 0 || notNamedByUser.length > 0;

  return (
    <li
      className={`approval-call effect-${call.effect}${fromEmail ? ' from-email' : ''}`}
      data-testid="approval-call"
      data-call-id={call.id}
      data-tool={call.name}
      data-effect={call.effect}
      data-decision={choice.decision ?? 'undecided'}
    >
      <div className="approval-call-head">
        <code className="tool-name">{call.name}</code>
        <span className={`effect-badge effect-${call.effect}`} data-testid="call-effect">
          {effectText[call.effect]}
        </span>
        {call.held && (
          <span className="held-badge" data-testid="held-mark">
            Already allowed — runs unless you deny it
          </span>
        )}
      </div>
      <p className="approval-title" data-testid="call-title">
        {shown(call.preview.title)}
      </p>
      {call.preview.lines.length > 0 && (
        <ul className="approval-lines">
          {call.preview.lines.map((line, index) => (
            // Preview lines are fixed for a call.
            // biome-ignore lint/suspicious/noArrayIndexKey: see above
            <li key={index} data-testid="call-line">
              {shown(line)}
              {unnamedIn(line, notNamedByUser).map((item) => (
                <FromEmailMark key={item} what={item} {...(unnamedText ? { text: unnamedText } : {})} />
              ))}
            </li>
          ))}
        </ul>
      )}
      {(marked.length > 0 || elsewhere.length > 0) && (
        <ul className="approval-provenance" aria-label="Came from an email">
          {elsewhere.map((item) => (
            <li key={`unnamed:${item}`}>
              <span className="approval-arg-value">{shown(item)}</span>
              <FromEmailMark what={item} {...(unnamedText ? { text: unnamedText } : {})} />
            </li>
          ))}
          {marked.map((row) => (
            <li key={`arg:${row.name}`}>
              <code>{row.fromEmail.join(', ')}</code>
              <span className="approval-arg-value">{shown(row.value)}</span>
              <FromEmailMark what={row.fromEmail.join(', ')} />
            </li>
          ))}
        </ul>
      )}
      <button
        type="button"
        className="ghost small"
        data-testid="show-args"
        aria-expanded={showArgs}
        onClick={() => setShowArgs(!showArgs)}
      >
        {showArgs ? 'Hide arguments' : 'Show arguments'}
      </button>
      {showArgs && (
        <pre className="approval-args" data-testid="raw-args">
          {prettyArgs(call.args)}
        </pre>
      )}
      <div className="approval-decision">
        {call.grantable && (
          <label className="approval-grant">
            <span>Allow</span>
            <select
              data-testid="grant-choice"
              value={choice.grant}
              disabled={disabled}
              onChange={(event) => edit(round, call.id, { grant: event.target.value as GrantChoice })}
            >
              {(Object.keys(grantText) as GrantChoice[]).map((scope) => (
                <option key={scope} value={scope}>
                  {grantText[scope]}
                </option>
              ))}
            </select>
          </label>
        )}
        {!onDecide && (
          <input
            className="approval-reason"
            data-testid="deny-reason"
            aria-label={`Reason for denying ${call.name} (optional, told to the model)`}
            placeholder="Reason if you deny (optional, told to the model)"
            maxLength={1000}
            value={choice.reason}
            disabled={disabled}
            onChange={(event) => edit(round, call.id, { reason: event.target.value })}
          />
        )}
        <button
          type="button"
          data-testid="deny-call"
          aria-pressed={choice.decision === 'deny'}
          disabled={disabled}
          onClick={() => decide(round, call.id, 'deny')}
        >
          Deny
        </button>
        <button
          type="button"
          className={risky ? 'danger' : 'primary'}
          data-testid="approve-call"
          aria-pressed={choice.decision === 'approve'}
          disabled={disabled}
          onClick={() => decide(round, call.id, 'approve')}
        >
          {call.effect === 'send'
            ? 'Approve sending'
            : call.effect === 'delete'
              ? 'Approve deleting'
              : 'Approve'}
        </button>
      </div>
    </li>
  );
}
