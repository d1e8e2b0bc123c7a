import { useMailStore } from '../stores/mail-store.ts';
import { type ScopeKind, useTriageStore } from '../stores/triage-store.ts';

// Which messages: the folder or the search the mail view shows, or all mail. A choice that the view does not
// offer right now (no folder picked, no search run) is disabled rather than guessed.
export function ScopePicker() {
  const scopeKind = useTriageStore((state) => state.scopeKind);
  const setScopeKind = useTriageStore((state) => state.setScopeKind);
  const folderName = useMailStore(
    (state) => state.folders.find((f) => f.id === state.folderId)?.name ?? null,
  );
  const query = useMailStore((state) => (state.hits !== null ? state.query.trim() : ''));

  const options: { kind: ScopeKind; label: string; disabled: boolean }[] = [
    {
      kind: 'folder',
      label: folderName ? `Folder ${folderName}` : 'The current folder',
      disabled: !folderName,
    },
    { kind: 'query', label: query ? `The search “${query}”` : 'The current search', disabled: !query },
    { kind: 'all', label: 'All mail', disabled: false },
  ];

  return (
    <fieldset className="triage-scope" data-testid="triage-scope">
      <legend>Messages</legend>
      {options.map((option) => (
        <label key={option.kind}>
          <input
            type="radio"
            name="triage-scope"
            data-testid={`triage-scope-${option.kind}`}
            checked={scopeKind === option.kind}
            disabled={option.disabled}
            onChange={() => setScopeKind(option.kind)}
          />
          {option.label}
        </label>
      ))}
    </fieldset>
  );
}
