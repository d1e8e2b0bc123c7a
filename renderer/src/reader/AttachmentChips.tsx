import { useState } from 'react';
import type { Attachment } from '../../../shared/contract/index.ts';
import { Modal } from '../app/Modal.tsx';
import { bridge, bridgeKind } from '../bridge.ts';
import { formatBytes } from '../format/format-size.ts';
import { displayText, hasDirectionControls } from '../mail/display-text.ts';
import { AttachmentPreview } from './AttachmentPreview.tsx';
import { saveAllAttachments, saveAttachment } from './save-attachment.ts';
import '../styles/attachments.css';

// A message's attachments (issue 29 §1): a click on a chip previews it over the reader; Save saves it (the
// system's dialog in the desktop app, a download in browser mode); Save all, for two or more, a folder or a zip;
// Open, in the desktop app, hands it to the system's application after saying what a program is.
export function AttachmentChips({ attachments, message }: { attachments: Attachment[]; message?: number }) {
  const [busy, setBusy] = useState<number | 'all' | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [previewing, setPreviewing] = useState<number | null>(null);
  const [warning, setWarning] = useState<{ index: number; text: string } | null>(null);

  const run = async (what: number | 'all', act: () => Promise<string | null>) => {
    setBusy(what);
    setError(null);
    try {
      setError(await act());
    } finally {
      setBusy(null);
    }
  };
  const save = (index: number) => {
    if (message === undefined) return;
    void run(index, () => saveAttachment(message, index, attachments[index]?.name ?? ''));
  };
  const open = (index: number, confirmed: boolean) => {
    if (message === undefined) return;
    setWarning(null);
    void run(index, async () => {
      const reply = await bridge['attachment:open']({ message, index, confirmed });
      if (!reply.ok) return reply.error.message;
      if (!reply.value.opened && reply.value.warning) setWarning({ index, text: reply.value.warning });
      return null;
    });
  };
  const shown = previewing === null ? undefined : attachments[previewing];

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
          const label = (
            <>
              <span className="chip-name">{name}</span>
              {hasDirectionControls(attachment.name) && (
                <span className="chip-warning">The name hid its real order; shown as it really is.</span>
              )}
              <span className="chip-meta">
                {displayText(attachment.contentType)} · {formatBytes(attachment.size)}
              </span>
            </>
          );
          return (
            // Attachments have no id of their own; their order in the message is stable.
            // biome-ignore lint/suspicious/noArrayIndexKey: see above
            <li key={index} className="chip" data-testid="attachment" title={attachment.contentType}>
              {message === undefined ? (
                label
              ) : (
                <button
                  type="button"
                  className="chip-open-preview"
                  data-testid="attachment-preview-open"
                  aria-label={`Preview ${name}`}
                  onClick={() => setPreviewing(index)}
                >
                  {label}
                </button>
              )}
              {message !== undefined && (
                <span className="chip-actions">
                  <button
                    type="button"
                    className="chip-save"
                    data-testid="attachment-save"
                    aria-label={`Save ${name}`}
                    disabled={busy !== null}
                    onClick={() => save(index)}
                  >
                    {busy === index ? 'Saving…' : 'Save'}
                  </button>
                  {bridgeKind === 'desktop' && (
                    <button
                      type="button"
                      className="chip-save"
                      data-testid="attachment-open"
                      aria-label={`Open ${name} with its application`}
                      disabled={busy !== null}
                      onClick={() => open(index, false)}
                    >
                      Open
                    </button>
                  )}
                </span>
              )}
            </li>
          );
        })}
      </ul>
      {message !== undefined && attachments.length >= 2 && (
        <p className="save-all">
          <button
            type="button"
            className="chip-save"
            data-testid="attachment-save-all"
            disabled={busy !== null}
            onClick={() => void run('all', () => saveAllAttachments(message))}
          >
            {busy === 'all'
              ? 'Saving…'
              : bridgeKind === 'desktop'
                ? `Save all ${attachments.length} to a folder`
                : `Save all ${attachments.length} (zip)`}
          </button>
        </p>
      )}
      {error && (
        <p className="warning attachment-error" role="alert" data-testid="attachment-error">
          {error}
        </p>
      )}
      {message !== undefined && previewing !== null && shown && (
        <AttachmentPreview
          message={message}
          index={previewing}
          attachment={shown}
          onClose={() => setPreviewing(null)}
          onSave={() => save(previewing)}
        />
      )}
      {warning && (
        <Modal label="Open this file?" testId="attachment-open-warning" onEscape={() => setWarning(null)}>
          <h2>Open this file?</h2>
          <p className="warning">{warning.text}</p>
          <div className="dialog-actions">
            <button type="button" className="primary" onClick={() => setWarning(null)}>
              Cancel
            </button>
            <button
              type="button"
              onClick={() => open(warning.index, true)}
              data-testid="attachment-open-anyway"
            >
              Open anyway
            </button>
          </div>
        </Modal>
      )}
    </>
  );
}
