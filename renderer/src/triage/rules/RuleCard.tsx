import { checkKey, useRulesStore } from '../../stores/rules-store.ts';

// The batch approval card (DESIGN §9): per rule, Skimmer's words for the write and the messages it would
// touch, each checked until the user unchecks it. Nothing is written before Approve.
export function RuleCard() {
  const card = useRulesStore((state) => state.card);
  const unchecked = useRulesStore((state) => state.unchecked);
  const busy = useRulesStore((state) => state.busy);
  const toggle = useRulesStore((state) => state.toggle);
  const approve = useRulesStore((state) => state.approve);
  const cancel = useRulesStore((state) => state.cancel);
  if (!card) return null;

  const empty = card.every((s) => s.messages.length === 0);
  return (
    <div className="rule-card" data-testid="rule-card">
      {empty && <p className="muted">These rules would change no answered message here.</p>}
      {card
        .filter((s) => s.messages.length > 0)
        .map((s) => (
          <section key={s.rule} className="rule-card-rule" data-testid="rule-suggestion" data-rule={s.rule}>
            <h4>{`${s.action} · ${s.messages.length} ${s.messages.length === 1 ? 'message' : 'messages'}`}</h4>
            <ul>
              {s.messages.map((m) => (
                <li key={m.id}>
                  <label data-testid="rule-message" data-message-id={m.id}>
                    <input
                      type="checkbox"
                      checked={!unchecked.has(checkKey(s.rule, m.id))}
                      onChange={() => toggle(s.rule, m.id)}
                    />
                    <span className="rule-message-subject">{m.subject || '(no subject)'}</span>
                    <span className="muted">{m.from}</span>
                  </label>
                </li>
              ))}
            </ul>
          </section>
        ))}
      <div className="rule-card-buttons">
        <button
          type="button"
          data-testid="rule-approve"
          disabled={busy || empty}
          onClick={() => void approve()}
        >
          Apply now to the checked
        </button>
        <button type="button" className="ghost" data-testid="rule-cancel" onClick={cancel}>
          Cancel
        </button>
      </div>
    </div>
  );
}
