import { useEffect } from 'react';
import type { AgentRequestView } from '../../../shared/contract/index.ts';
import { Modal } from '../app/Modal.tsx';
import { displayText } from '../mail/display-text.ts';
import { useAgentRequestsStore } from '../stores/agent-requests-store.ts';
import { ApprovalCallView } from './ApprovalCallView.tsx';
import type { CallChoice } from './approval-answers.ts';

const undecided: CallChoice = { decision: null, reason: '', grant: 'once' };

const clock = (ms: number) => new Date(ms).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });

function AgentRequest({ request }: { request: AgentRequestView }) {
  const answer = useAgentRequestsStore((state) => state.answer);
  const busy = useAgentRequestsStore((state) => state.answering.includes(request.id));
  return (
    <section
      className="approval-card agent-request"
      data-testid="agent-request"
      aria-label="Request from an agent"
    >
      <h3 className="approval-heading">
        {/* The client's name for itself: its words, shown as text. */}
        {displayText(`Asked by an outside agent: ${request.client}`)}
      </h3>
      <p className="muted">{`Nothing happens until you decide. The agent stops waiting at ${clock(request.expiresAt)}.`}</p>
      <ol className="approval-calls">
        <ApprovalCallView
          call={request.call}
          round={0}
          choice={undecided}
          disabled={busy}
          onDecide={(decision) => void answer(request.id, decision)}
          unnamedText="never written by you: from the agent or an email"
        />
      </ol>
    </section>
  );
}

// The place for requests from outside agents (`skimmer mcp`): a top-bar badge while any wait, and a dialog
// with one approval card per request, opened from the badge.
export function AgentRequests() {
  const requests = useAgentRequestsStore((state) => state.requests);
  const open = useAgentRequestsStore((state) => state.open);
  const error = useAgentRequestsStore((state) => state.error);
  const openDialog = useAgentRequestsStore((state) => state.openDialog);
  const closeDialog = useAgentRequestsStore((state) => state.closeDialog);

  useEffect(() => {
    void useAgentRequestsStore.getState().start();
  }, []);

  return (
    <>
      {requests.length > 0 && (
        <button
          type="button"
          className="primary small"
          data-testid="agent-requests-open"
          onClick={openDialog}
        >
          {`Agent requests (${requests.length})`}
        </button>
      )}
      {open && (
        <Modal label="Requests from agents" testId="agent-requests-dialog" onEscape={closeDialog}>
          <div className="dialog-title">
            <h2>Requests from agents</h2>
            <button type="button" className="ghost" data-testid="agent-requests-close" onClick={closeDialog}>
              Close
            </button>
          </div>
          <p className="muted">
            An agent connected through skimmer mcp wants to change your mail. Skimmer wrote what each request
            would do from your stored mail; marks show what came from an email or was never written by you.
          </p>
          {error && (
            <p className="warning" role="alert" data-testid="agent-requests-error">
              {error}
            </p>
          )}
          {requests.map((r) => (
            <AgentRequest key={r.id} request={r} />
          ))}
        </Modal>
      )}
    </>
  );
}
