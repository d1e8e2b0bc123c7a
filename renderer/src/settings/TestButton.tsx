import type { TestResult } from '../stores/saved-list.ts';

// A saved row's "Test": the button, which waits while its test runs, and the result it leaves below the row.
export function TestButton({
  testId,
  label,
  test,
  onTest,
}: {
  testId: string;
  label: string;
  test: TestResult | undefined;
  onTest(): void;
}) {
  const testing = test?.status === 'testing';
  return (
    <button type="button" data-testid={testId} disabled={testing} aria-busy={testing} onClick={onTest}>
      {testing ? 'Testing…' : label}
    </button>
  );
}

export function TestResultNote({ testId, test }: { testId: string; test: TestResult | undefined }) {
  if (test?.status !== 'done') return null;
  return (
    <p className={test.ok ? 'muted' : 'warning'} role="status" data-testid={testId}>
      {test.message}
    </p>
  );
}
