import type { GroundedView } from '../../../shared/contract/index.ts';
import { displayText } from '../mail/display-text.ts';
import { answerParts } from './answer-parts.ts';

// SECURITY: the answer is model output about untrusted mail, so it is React text only: no markdown, links or
// images. Each checked citation is a button that shows its message in the reader, or opens its document at
// the cited page; direction controls are removed as in every mail-derived string Skimmer shows (DESIGN §12).
export function GroundedAnswer({
  view,
  messageIds,
  onShow,
  onShowDocument,
}: {
  view: GroundedView;
  messageIds: readonly number[];
  onShow: (messageId: number) => void;
  onShowDocument: (documentId: number, chunkId: string) => void;
}) {
  return (
    <p className="summary-answer" data-testid="summary-answer">
      {answerParts(view, messageIds).map((part, i) =>
        part.kind === 'text' ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one answer never reorder
          <span key={i}>{displayText(part.text)}</span>
        ) : (
          <button
            // biome-ignore lint/suspicious/noArrayIndexKey: one source can be cited more than once
            key={i}
            type="button"
            className="summary-cite"
            data-testid="summary-cite"
            data-cite-id={part.citation.id}
            data-document-id={part.citation.documentId ?? undefined}
            title={displayText(part.citation.title)}
            disabled={part.citation.messageId === null && part.citation.documentId === null}
            onClick={() => {
              if (part.citation.messageId !== null) onShow(part.citation.messageId);
              else if (part.citation.documentId !== null)
                onShowDocument(part.citation.documentId, part.citation.id);
            }}
          >
            {displayText(part.label)}
          </button>
        ),
      )}
    </p>
  );
}
