import type { Attachment } from '../../../shared/contract/index.ts';
import { formatBytes } from '../format/format-size.ts';
import { displayText, hasDirectionControls } from '../mail/display-text.ts';

export function AttachmentChips({ attachments }: { attachments: Attachment[] }) {
  return (
    <ul className="attachments" aria-label="Attachments">
      {attachments.map((attachment, index) => (
        // Attachments have no id of their own; their order in the message is stable.
        // biome-ignore lint/suspicious/noArrayIndexKey: see above
        <li key={index} className="chip" data-testid="attachment" title={attachment.contentType}>
          <span className="chip-name">{displayText(attachment.name) || 'Unnamed attachment'}</span>
          {hasDirectionControls(attachment.name) && (
            <span className="chip-warning">The name hid its real order; shown as it really is.</span>
          )}
          <span className="chip-meta">
            {displayText(attachment.contentType)} · {formatBytes(attachment.size)}
          </span>
        </li>
      ))}
    </ul>
  );
}
