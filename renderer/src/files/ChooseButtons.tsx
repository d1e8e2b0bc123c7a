import type { PickPurpose } from '../../../shared/contract/index.ts';
import { useFilePickStore } from '../stores/file-pick-store.ts';

type Props = {
  purpose: PickPurpose;
  testId: string;
  disabled?: boolean;
  onChoose(kind: 'files' | 'folders'): void;
};

// The buttons that open a picker. The system dialog is a file chooser or a folder chooser, never both (Electron's
// dialog on Windows and Linux), so the desktop app offers one of each for mail; Skimmer's own browser takes both.
export function ChooseButtons(props: Props) {
  const error = useFilePickStore((state) => state.pickError);
  return (
    <>
      <Buttons {...props} />
      {error && (
        <p className="warning" role="alert" data-testid="choose-error">
          {error}
        </p>
      )}
    </>
  );
}

function Buttons({ purpose, testId, disabled, onChoose }: Props) {
  const systemDialog = useFilePickStore((state) => state.systemDialog);
  if (purpose === 'documents' || !systemDialog) {
    return (
      <div className="choose-buttons">
        <button
          type="button"
          className="primary"
          data-testid={testId}
          disabled={disabled}
          onClick={() => onChoose('files')}
        >
          {purpose === 'documents' ? 'Choose files…' : 'Choose files and folders…'}
        </button>
      </div>
    );
  }
  return (
    <div className="choose-buttons">
      <button
        type="button"
        className="primary"
        data-testid={testId}
        disabled={disabled}
        onClick={() => onChoose('files')}
      >
        Choose files…
      </button>
      <button
        type="button"
        data-testid={`${testId}-folders`}
        disabled={disabled}
        onClick={() => onChoose('folders')}
      >
        Choose folders…
      </button>
    </div>
  );
}
