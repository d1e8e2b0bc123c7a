import { useState } from 'react';
import type { Attachment } from '../../../shared/contract/index.ts';
import { formatBytes } from '../format/format-size.ts';
import { displayText, hasDirectionControls } from '../mail/display-text.ts';
import { saveAttachment } from './save-attachment.ts';
import '../styles/attachments.css';

export function AttachmentChips({ attachments, message }: { attachments: Attachment[]; message?: number }) {
  const [saving, setSaving] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const save = async (index: number) => {
    if (message === undefined) return;
    setSaving(index);
    setError(null);
    try {
      setError(await saveAttachment(message, index));
    } finally {
      setSaving(null);
    }
  };
  return (
    <>
      <ul className="attachments" aria-label="Attachments">
        {attachments.map((attachment, index) => {
          // The calendar alternative of an invitation (Google, Outlook, Fastmail) has no name of its own.
          const name =
            displayText(attachment.name) ||
            (/^text\/calendar\b/i.test(attachment.contentType)
              ? 'Calendar invitation'
              : 'Unnamed attachment');
          return (
            // Attachments have no id of their own; their order in the message is stable.
            // biome-ignore lint/suspicious/noArrayIndexKey: see above
            <li key={index} className="chip" data-testid="attachment" title={attachment.contentType}>
              <span className="chip-name">{name}</span>
              {hasDirectionControls(attachment.name) && (
                <span className="chip-warning">The name hid its real order; shown as it really is.</span>
              )}
              <span className="chip-meta">
                {displayText(attachment.contentType)} · {formatBytes(attachment.size)}
              </span>
              {message !== undefined && (
                <button
                  type="button"
                  className="chip-save"
                  data-testid="attachment-save"
                  aria-label={`Save ${name}`}
                  disabled={saving !== null}
                  onClick={() => void save(index)}
                >
                  {saving === index ? 'Saving…' : 'Save'}
                </button>
              )}
            </li>
          );
        })}
      </ul>
      {error && (
        <p className="warning attachment-error" role="alert" data-testid="attachment-error">
          {error}
        </p>
      )}
    </>
  );
}
