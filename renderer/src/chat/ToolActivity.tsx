import { useState } from 'react';
import type { ToolResultView } from '../../../shared/contract/index.ts';
import { shortArgs } from './tool-call-summary.ts';
import { UntrustedBlock } from './UntrustedBlock.tsx';
import { untrustedPreview } from './untrusted-preview.ts';

// What the model did with the mail tools, in the transcript: each call on one line (which tool, with what),
// then what it returned. The arguments are the model's, so they are text like its answer.
export function ToolCallLine({ name, args }: { name: string; args: unknown }) {
  const shown = shortArgs(args);
  return (
    <div className="tool-call" data-testid="tool-call" data-tool={name}>
      <span className="tool-call-mark" aria-hidden="true">
        ⚙
      </span>
      <code className="tool-name">{name}</code>
      {shown !== '' && <span className="tool-args">{shown}</span>}
    </div>
  );
}

// A result: the tool's own text (collapsed when long), and any mail in it as untrusted blocks.
export function ToolResultBox({ result }: { result: ToolResultView }) {
  const [expanded, setExpanded] = useState(false);
  const preview = untrustedPreview(result.text, 3);
  return (
    <div
      className={`tool-result${result.isError ? ' failed' : ''}`}
      data-testid="tool-result"
      data-tool={result.name}
      data-error={result.isError}
    >
      <div className="tool-result-head">
        <span aria-hidden="true">{result.isError ? '✕' : '↳'}</span>
        <code className="tool-name">{result.name}</code>
        <span className="muted">{result.isError ? 'did not succeed' : 'returned'}</span>
      </div>
      {result.text !== '' && (
        <div className="tool-result-text" data-testid="tool-result-text">
          {expanded ? result.text : preview.text}
        </div>
      )}
      {preview.cut && (
        <button
          type="button"
          className="ghost small"
          aria-expanded={expanded}
          onClick={() => setExpanded(!expanded)}
        >
          {expanded ? 'Show less' : 'Show all'}
        </button>
      )}
      {result.untrusted.map((part, index) => (
        // A result's parts never reorder.
        // biome-ignore lint/suspicious/noArrayIndexKey: see above
        <UntrustedBlock key={index} part={part} />
      ))}
    </div>
  );
}
