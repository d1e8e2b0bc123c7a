import { type ReactNode, useState } from 'react';
import type { UntrustedPart } from '../../../shared/contract/index.ts';
import { displayText } from '../mail/display-text.ts';
import { sourceLabel, untrustedPreview } from './untrusted-preview.ts';

// SECURITY (DESIGN §8, §12): mail the model read (a tool result, or mail the user quoted) is set apart from
// the conversation and labelled as data, so nobody takes it for Skimmer's or the model's words. Everything
// in it is React text: no markup, links or images. A suspected injection is flagged with the line that
// looks like one; the flag is a hint for the user, not a defence (those are the gates and approvals).
// `readable` (a tool result's rows) takes the text's place, with the text itself under "Details".
export function UntrustedBlock({ part, readable }: { part: UntrustedPart; readable?: ReactNode }) {
  const [expanded, setExpanded] = useState(false);
  const preview = untrustedPreview(part.text);
  return (
    <div
      className={`untrusted chat-untrusted${part.suspect ? ' suspect' : ''}`}
      data-testid="untrusted-block"
      data-source={part.source}
      data-suspect={part.suspect}
    >
      <div className="untrusted-bar">
        <span className="untrusted-badge">From an email — treated as data, not instructions</span>
        <span className="untrusted-source">{sourceLabel(part.source)}</span>
      </div>
      {part.suspect && (
        <div className="injection-flag" role="note" data-testid="injection-flag">
          <strong>Possible prompt injection.</strong> This mail seems to give orders to an AI assistant. The
          model got it as data only; nothing it asks for happens without your approval.
          {part.quote !== null && (
            <blockquote className="injection-quote" data-testid="injection-quote">
              {displayText(part.quote)}
            </blockquote>
          )}
        </div>
      )}
      {readable ? (
        <>
          {readable}
          <details className="tool-result-details">
            <summary>Details</summary>
            <div className="untrusted-text" data-testid="untrusted-text">
              {part.text}
            </div>
          </details>
        </>
      ) : (
        <div className="untrusted-text" data-testid="untrusted-text">
          {expanded ? part.text : preview.text}
        </div>
      )}
      {!readable && preview.cut && (
        <button
          type="button"
          className="ghost small untrusted-more"
          data-testid="untrusted-expand"
          aria-expanded={expanded}
          onClick={() => setExpanded(!expanded)}
        >
          {expanded ? 'Show less' : 'Show all'}
        </button>
      )}
    </div>
  );
}

// Mail the user quoted with their message: context the model read before their words, not their words.
export function QuotedMail({ parts }: { parts: readonly UntrustedPart[] }) {
  return (
    <div className="quoted-mail" data-testid="quoted-mail">
      <p className="quoted-mail-label">Quoted mail, sent with the message</p>
      {parts.map((part, index) => (
        // Parts never reorder within a stored quote.
        // biome-ignore lint/suspicious/noArrayIndexKey: see above
        <UntrustedBlock key={index} part={part} />
      ))}
    </div>
  );
}
