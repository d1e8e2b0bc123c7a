import type { QuestionSetView } from '../../../shared/contract/index.ts';
import { useTriageStore } from '../stores/triage-store.ts';
import { newMailEstimateText } from './triage-text.ts';

// A set can run on new mail as it arrives (DESIGN §9, issue 17): opt-in, with the model in the field above,
// the cost judged from the scope's estimate, and the service's consent asked as for a job. Turning it on asks
// about mail that arrives from then on, never the mail already here.
export function NewMailToggle({ set }: { set: QuestionSetView }) {
  const model = useTriageStore((state) => state.model);
  const estimate = useTriageStore((state) => state.estimate);
  const error = useTriageStore((state) => state.newMailError);
  const setNewMail = useTriageStore((state) => state.setNewMail);
  const on = set.newMail !== null;
  const cost = estimate ? newMailEstimateText(estimate) : null;

  return (
    <section className="triage-new-mail" data-testid="triage-new-mail">
      <label>
        <input
          type="checkbox"
          data-testid="triage-new-mail-toggle"
          checked={on}
          onChange={(event) => void setNewMail(event.target.checked)}
        />
        <span>
          {on ? (
            <>
              Runs on new mail as it arrives, with{' '}
              <strong data-testid="triage-new-mail-model">{set.newMail?.model}</strong>
            </>
          ) : (
            `Run on new mail as it arrives, with ${model.trim() === '' ? 'the model above' : model.trim()}`
          )}
        </span>
      </label>
      {!on && cost && (
        <p className="muted" data-testid="triage-new-mail-estimate">
          {cost}
        </p>
      )}
      {set.newMail?.error && (
        <p className="hint-problem" data-testid="triage-new-mail-problem">
          {set.newMail.error}
        </p>
      )}
      {error && (
        <p className="hint-problem" role="alert" data-testid="triage-new-mail-error">
          {error}
        </p>
      )}
    </section>
  );
}
