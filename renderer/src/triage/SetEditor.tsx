import { useSetEditorStore } from '../stores/set-editor-store.ts';
import type { QuestionDraft, QuestionType } from './set-draft.ts';

const typeNames: Record<QuestionType, string> = {
  predicate: 'Yes or no',
  choice: 'One of several choices',
  score: 'A level on a scale',
};

// The editor of a question set: its name and its questions. What Skimmer refuses (a duplicate name, too few
// choices or levels) comes back as its own sentence, shown above Save.
export function SetEditor() {
  const draft = useSetEditorStore((state) => state.draft);
  const saving = useSetEditorStore((state) => state.saving);
  const error = useSetEditorStore((state) => state.error);
  const rename = useSetEditorStore((state) => state.rename);
  const addQuestion = useSetEditorStore((state) => state.addQuestion);
  const save = useSetEditorStore((state) => state.save);
  const remove = useSetEditorStore((state) => state.remove);
  const close = useSetEditorStore((state) => state.close);
  if (!draft) return null;

  return (
    <section className="set-editor" data-testid="set-editor">
      <h3>{draft.id === null ? 'New question set' : 'Edit question set'}</h3>
      <label className="triage-field">
        <span>Name</span>
        <input
          data-testid="set-name"
          value={draft.name}
          maxLength={80}
          onChange={(event) => rename(event.target.value)}
        />
      </label>
      <ol className="set-questions">
        {draft.questions.map((q, index) => (
          <QuestionEditor key={q.key} question={q} index={index} />
        ))}
      </ol>
      <div className="triage-actions">
        {(['predicate', 'choice', 'score'] as const).map((type) => (
          <button
            key={type}
            type="button"
            className="ghost"
            data-testid={`set-add-${type}`}
            onClick={() => addQuestion(type)}
          >
            Add {typeNames[type].toLowerCase()}
          </button>
        ))}
      </div>
      {error && (
        <p className="hint-problem" role="alert" data-testid="set-error">
          {error}
        </p>
      )}
      <div className="triage-actions">
        <button type="button" data-testid="set-save" disabled={saving} onClick={() => void save()}>
          {saving ? 'Saving…' : 'Save'}
        </button>
        <button type="button" className="ghost" data-testid="set-cancel" onClick={close}>
          Cancel
        </button>
        {draft.id !== null && (
          <button
            type="button"
            className="ghost danger"
            data-testid="set-remove"
            onClick={() => void remove()}
          >
            Remove set
          </button>
        )}
      </div>
    </section>
  );
}

function QuestionEditor({ question, index }: { question: QuestionDraft; index: number }) {
  const changeQuestion = useSetEditorStore((state) => state.changeQuestion);
  const removeQuestion = useSetEditorStore((state) => state.removeQuestion);
  const change = (patch: Partial<Omit<QuestionDraft, 'key'>>) => changeQuestion(question.key, patch);

  return (
    <li className="set-question" data-testid="set-question">
      <div className="set-question-head">
        <select
          aria-label={`Question ${index + 1} type`}
          data-testid="set-question-type"
          value={question.type}
          onChange={(event) => change({ type: event.target.value as QuestionType })}
        >
          {(['predicate', 'choice', 'score'] as const).map((type) => (
            <option key={type} value={type}>
              {typeNames[type]}
            </option>
          ))}
        </select>
        <input
          aria-label={`Question ${index + 1} name`}
          data-testid="set-question-name"
          placeholder="name, e.g. needs_reply"
          value={question.name}
          onChange={(event) => change({ name: event.target.value })}
        />
        <button type="button" className="ghost" onClick={() => removeQuestion(question.key)}>
          Remove
        </button>
      </div>
      <textarea
        aria-label={`Question ${index + 1} instructions`}
        data-testid="set-question-instructions"
        placeholder="What the model should decide, in your words"
        rows={2}
        value={question.instructions}
        onChange={(event) => change({ instructions: event.target.value })}
      />
      {question.type !== 'predicate' && (
        <label className="set-question-lines">
          <span className="muted">
            {question.type === 'choice'
              ? 'Choices, one a line (2–255): value, or value — description'
              : 'Levels from low to high, one a line (2–10): label, or label — description'}
          </span>
          <textarea
            data-testid="set-question-lines"
            rows={Math.min(8, Math.max(3, question.lines.split('\n').length))}
            value={question.lines}
            onChange={(event) => change({ lines: event.target.value })}
          />
        </label>
      )}
    </li>
  );
}
