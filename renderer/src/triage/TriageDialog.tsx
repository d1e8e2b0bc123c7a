import { Modal } from '../app/Modal.tsx';
import { useSetEditorStore } from '../stores/set-editor-store.ts';
import { useTriageStore } from '../stores/triage-store.ts';
import { JobList } from './JobList.tsx';
import { NewMailToggle } from './NewMailToggle.tsx';
import { RunPanel } from './RunPanel.tsx';
import { RulesSection } from './rules/RulesSection.tsx';
import { ScopePicker } from './ScopePicker.tsx';
import { SetEditor } from './SetEditor.tsx';
import { TriageModelField } from './TriageModelField.tsx';

// Triage (DESIGN §9): a question set asked of many messages by one model. The estimate shows before Start
// (it contacts nothing); answers already cached for a message and model are not asked again.
export function TriageDialog() {
  const open = useTriageStore((state) => state.open);
  const close = useTriageStore((state) => state.closeDialog);
  const sets = useTriageStore((state) => state.sets);
  const setsError = useTriageStore((state) => state.setsError);
  const setId = useTriageStore((state) => state.setId);
  const selectSet = useTriageStore((state) => state.selectSet);
  const addStarters = useTriageStore((state) => state.addStarters);
  const editing = useSetEditorStore((state) => state.draft !== null);
  const edit = useSetEditorStore((state) => state.edit);
  const stopEditing = useSetEditorStore((state) => state.close);
  if (!open) return null;

  // Esc or Close leaves an unsaved edit behind, as Cancel does.
  const leave = () => {
    stopEditing();
    close();
  };

  const chosen = sets.find((s) => s.id === setId);
  return (
    <Modal label="Triage" testId="triage-dialog" onEscape={leave} className="triage-dialog">
      <div className="dialog-title">
        <h2>Triage</h2>
        <button type="button" className="ghost" data-testid="triage-close" onClick={leave}>
          Close
        </button>
      </div>
      <p className="muted">
        A model answers each question for each message; the answers show as chips in the thread list. Mail is
        sent to the model as data only, and a message this model already answered is not asked again.
      </p>
      <div className="triage-field">
        <label htmlFor="triage-set">Questions</label>
        <select
          id="triage-set"
          data-testid="triage-set"
          value={setId ?? ''}
          disabled={editing}
          onChange={(event) => selectSet(Number(event.target.value))}
        >
          {sets.map((s) => (
            <option key={s.id} value={s.id}>
              {s.name}
            </option>
          ))}
        </select>
        <button
          type="button"
          className="ghost"
          data-testid="set-edit"
          disabled={editing || setId === null}
          onClick={() => edit(setId)}
        >
          Edit
        </button>
        <button
          type="button"
          className="ghost"
          data-testid="set-new"
          disabled={editing}
          onClick={() => edit(null)}
        >
          New set
        </button>
        <button
          type="button"
          className="ghost"
          data-testid="set-starters"
          disabled={editing}
          title="Needs reply, category, urgency 0–4, newsletter, phishing"
          onClick={() => void addStarters()}
        >
          Add starter questions
        </button>
      </div>
      {setsError && (
        <p className="hint-problem" role="alert">
          {setsError}
        </p>
      )}
      {editing ? (
        <SetEditor />
      ) : (
        <>
          {chosen && (
            <p className="muted triage-questions" data-testid="triage-question-names">
              {chosen.questions.map((q) => `${q.name} (${q.type})`).join(' · ')}
            </p>
          )}
          <TriageModelField />
          <ScopePicker />
          <RunPanel />
          {chosen && <NewMailToggle set={chosen} />}
          <JobList />
          {chosen && <RulesSection set={chosen} />}
        </>
      )}
    </Modal>
  );
}
