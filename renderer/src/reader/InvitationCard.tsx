// The event card above an invitation's body (issue 29 §2): what, when (in the person's zone, and the
// organiser's when its clock differs), where, who, how it repeats, what an update changed or that it is
// cancelled, and the answer: Accept / Tentative / Decline send the iTIP REPLY through the outbox (its bar has
// the Undo) and the chosen one shows as chosen. A calendar part Skimmer will not read is one sentence; the
// message shows as usual below it. Everything here is the sender's text, shown as text (displayText).
import { useEffect } from 'react';
import type { InvitationCard as Card, InvitationAnswer } from '../../../shared/contract/index.ts';
import { displayText } from '../mail/display-text.ts';
import { useOutboxStore } from '../stores/outbox-store.ts';
import { useInvitationStore } from './invitation-store.ts';
import { answerText, changeText, localZone, organiserZone, spanText } from './invitation-text.ts';
import '../styles/invitations.css';

const choices: { answer: InvitationAnswer; label: string }[] = [
  { answer: 'ACCEPTED', label: 'Accept' },
  { answer: 'TENTATIVE', label: 'Tentative' },
  { answer: 'DECLINED', label: 'Decline' },
];

const person = (p: { name: string | null; address: string }) =>
  displayText(p.name && p.name !== p.address ? `${p.name} <${p.address}>` : p.address);

export function InvitationCard({ message }: { message: number }) {
  const view = useInvitationStore((state) => state.views[message]);
  const busy = useInvitationStore((state) => state.busy.has(message));
  const error = useInvitationStore((state) => state.errors[message] ?? null);
  const load = useInvitationStore((state) => state.load);
  const outboxId = view?.kind === 'invitation' ? (view.card.answer?.outboxId ?? null) : null;
  // The answer's message in the outbox: when it is sent, or taken back by Undo, the card reads its answer again.
  const outboxState = useOutboxStore((state) =>
    outboxId === null ? null : (state.items.find((i) => i.id === outboxId)?.state ?? 'gone'),
  );
  // biome-ignore lint/correctness/useExhaustiveDependencies: outboxState is the reason to read the card again
  useEffect(() => {
    void load(message);
  }, [load, message, outboxState]);

  if (!view || view.kind === 'none') return null;
  if (view.kind === 'unreadable') {
    return (
      <p className="invitation-unreadable" data-testid="invitation-unreadable">
        {view.sentence}
      </p>
    );
  }
  return <Event message={message} card={view.card} busy={busy} error={error} />;
}

function Event({
  message,
  card,
  busy,
  error,
}: {
  message: number;
  card: Card;
  busy: boolean;
  error: string | null;
}) {
  const respond = useInvitationStore((state) => state.respond);
  const addToCalendar = useInvitationStore((state) => state.addToCalendar);
  const zone = localZone();
  const theirs = organiserZone(card.start, zone);
  const cancelled = card.method === 'CANCEL';
  const current = card.answer && card.answer.sequence >= card.sequence ? card.answer.answer : null;
  return (
    <section
      className={`invitation${cancelled ? ' cancelled' : ''}`}
      data-testid="invitation"
      aria-label={`Invitation: ${displayText(card.title)}`}
    >
      <header className="invitation-head">
        <span className="invitation-kind">
          {cancelled ? 'Cancelled' : card.update ? 'Updated invitation' : 'Invitation'}
        </span>
        <h3 className="invitation-title" data-testid="invitation-title">
          {displayText(card.title)}
        </h3>
      </header>
      {cancelled && (
        <p className="invitation-status" data-testid="invitation-cancelled">
          Cancelled: the organiser called this event off.
        </p>
      )}
      {card.changes.length > 0 && (
        <ul className="invitation-changes" data-testid="invitation-changes">
          {card.changes.map((c) => (
            <li key={c.field}>{displayText(changeText(c, zone))}</li>
          ))}
        </ul>
      )}
      <dl className="invitation-fields">
        <dt>When</dt>
        <dd data-testid="invitation-when">
          {spanText(card.start, card.end, zone)}
          {theirs && (
            <span className="invitation-their-time" data-testid="invitation-their-time">
              {' '}
              ({spanText(card.start, card.end, theirs)} in {theirs})
            </span>
          )}
        </dd>
        {card.repeats && (
          <>
            <dt>Repeats</dt>
            <dd data-testid="invitation-repeats">{card.repeats}</dd>
          </>
        )}
        {card.location && (
          <>
            <dt>Where</dt>
            <dd data-testid="invitation-where">{displayText(card.location)}</dd>
          </>
        )}
        {card.organizer && (
          <>
            <dt>Organiser</dt>
            <dd data-testid="invitation-organizer">{person(card.organizer)}</dd>
          </>
        )}
        {card.attendees.length > 0 && (
          <>
            <dt>Invited</dt>
            <dd data-testid="invitation-attendees">
              {card.attendees.map(person).join(', ')}
              {card.moreAttendees > 0 && ` and ${card.moreAttendees} more`}
            </dd>
          </>
        )}
      </dl>
      <div className="invitation-actions">
        {!cancelled && card.invited !== null && (
          <fieldset className="invitation-answers" aria-label="Your answer">
            {choices.map((c) => (
              <button
                key={c.answer}
                type="button"
                className={`invitation-answer${current === c.answer ? ' chosen' : ''}`}
                data-testid={`invitation-${c.answer.toLowerCase()}`}
                aria-pressed={current === c.answer}
                disabled={busy}
                onClick={() => void respond(message, c.answer)}
              >
                {c.label}
              </button>
            ))}
          </fieldset>
        )}
        <button
          type="button"
          className="ghost small"
          data-testid="invitation-add"
          disabled={busy}
          onClick={() => void addToCalendar(message)}
        >
          Add to calendar
        </button>
      </div>
      {card.answer && (
        <p className="invitation-status" data-testid="invitation-answer">
          {answerText(card.answer, card.sequence)}
        </p>
      )}
      {!cancelled && card.invited === null && (
        <p className="invitation-status">
          None of your addresses is among the people invited, so Skimmer cannot answer.
        </p>
      )}
      {error && (
        <p className="warning" role="alert" data-testid="invitation-error">
          {error}
        </p>
      )}
    </section>
  );
}
