import { type ReactNode, useState } from 'react';
import type { ToolResultView } from '../../../shared/contract/index.ts';
import { shortArgs } from './tool-call-summary.ts';
import { type ResultRows, resultRows } from './tool-result-rows.ts';
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
  const rows = result.isError ? null : resultRows(result.name, result.text);
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
      {rows ? (
        <>
          <ReadableResult rows={rows} />
          <details className="tool-result-details">
            <summary>Details</summary>
            <div className="tool-result-text" data-testid="tool-result-text">
              {result.text}
            </div>
          </details>
        </>
      ) : (
        result.text !== '' && (
          <div className="tool-result-text" data-testid="tool-result-text">
            {expanded ? result.text : preview.text}
          </div>
        )
      )}
      {!rows && preview.cut && (
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
        <UntrustedBlock key={index} part={part} readable={readableOf(result.name, part.text)} />
      ))}
    </div>
  );
}

function readableOf(name: string, text: string): ReactNode {
  const rows = resultRows(name, text);
  return rows ? <ReadableResult rows={rows} /> : undefined;
}

// Mail found as rows (subject, sender, date), labels with counts, or what a change did, in one sentence. The
// subjects and senders come from mail: rendered as text, like the untrusted blocks.
function ReadableResult({ rows }: { rows: ResultRows }) {
  if (rows.kind === 'sentence') {
    return (
      <p className="tool-result-sentence" data-testid="tool-result-rows">
        {rows.text}
      </p>
    );
  }
  if (rows.kind === 'labels') {
    return (
      <ul className="tool-result-rows" data-testid="tool-result-rows">
        {rows.rows.map((l) => (
          <li key={l.name}>
            <span className="tool-row-subject">{l.name}</span>
            <span className="muted">{l.count}</span>
          </li>
        ))}
      </ul>
    );
  }
  if (rows.rows.length === 0) {
    return (
      <p className="tool-result-sentence muted" data-testid="tool-result-rows">
        No mail found.
      </p>
    );
  }
  return (
    <ul className="tool-result-rows untrusted-rows" data-testid="tool-result-rows">
      {rows.rows.map((m) => (
        <li key={m.id} data-testid="tool-result-row" data-message-id={m.id}>
          <span className="tool-row-subject">{m.subject}</span>
          <span className="tool-row-from">{m.from}</span>
          <span className="tool-row-date muted">{m.date}</span>
        </li>
      ))}
    </ul>
  );
}
