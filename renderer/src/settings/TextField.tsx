import type { HTMLAttributes } from 'react';

// A typed setting: a name, an address, a user name, a key or a price. None is prose, so the browser neither
// fills it from what it remembers nor marks it as misspelt.
export function TextField({
  label,
  testId,
  value,
  onChange,
  type,
  placeholder,
  inputMode,
  wide = false,
}: {
  label: string;
  testId: string;
  value: string;
  onChange(value: string): void;
  type?: 'password';
  placeholder?: string;
  inputMode?: HTMLAttributes<HTMLInputElement>['inputMode'];
  // Across the whole form grid.
  wide?: boolean;
}) {
  return (
    <label className={wide ? 'field wide' : 'field'}>
      <span>{label}</span>
      <input
        type={type}
        data-testid={testId}
        value={value}
        placeholder={placeholder}
        autoComplete="off"
        spellCheck={false}
        inputMode={inputMode}
        onChange={(event) => onChange(event.target.value)}
      />
    </label>
  );
}
