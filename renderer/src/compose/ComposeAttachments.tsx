import { useRef } from 'react';
import { formatBytes } from '../format/format-size.ts';
import { displayText } from '../mail/display-text.ts';
import { useComposeStore } from '../stores/compose-store.ts';

// The draft's files as chips with their size and ×: files the user attached, and a forward's, which are read
// from where the original's are kept when it is sent. Files on their way show a progress line.
export function ComposeAttachments() {
  const attachments = useComposeStore((state) => state.attachments);
  const uploads = useComposeStore((state) => state.uploads);
  const detach = useComposeStore((state) => state.detach);
  const dismissUpload = useComposeStore((state) => state.dismissUpload);
  if (attachments.length === 0 && uploads.length === 0) return null;
  return (
    <div className="compose-files">
      {attachments.length > 0 && (
        <ul className="attachments" aria-label="Attached files">
          {attachments.map((attachment) => (
            <li
              key={attachment.id}
              className="chip"
              data-testid="composer-attachment"
              data-origin={attachment.origin}
              title={
                attachment.origin === 'forwarded' ? 'From the forwarded message' : attachment.contentType
              }
            >
              <span className="chip-name">{displayText(attachment.name) || 'Unnamed file'}</span>
              <span className="chip-meta">{formatBytes(attachment.size)}</span>
              <button
                type="button"
                className="address-chip-remove"
                aria-label={`Remove ${displayText(attachment.name)}`}
                onClick={() => void detach(attachment.id)}
              >
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
      {uploads.map((upload) => (
        <p
          key={upload.key}
          className={upload.error ? 'warning compose-upload' : 'muted compose-upload'}
          data-testid="composer-upload"
          role={upload.error ? 'alert' : undefined}
        >
          {upload.error
            ? `${displayText(upload.name)} was not attached: ${upload.error}`
            : `Attaching ${displayText(upload.name)}… ${formatBytes(upload.sent)} of ${formatBytes(upload.size)}`}
          {upload.error && (
            <button type="button" className="ghost small" onClick={() => dismissUpload(upload.key)}>
              OK
            </button>
          )}
        </p>
      ))}
    </div>
  );
}

// The Attach button opens the system's file picker through a hidden <input type=file multiple>: Electron's own
// dialog in the app, the browser's in browser mode. The page gets the files the user chose, never a path.
export function AttachButton() {
  const input = useRef<HTMLInputElement>(null);
  const attach = useComposeStore((state) => state.attach);
  return (
    <>
      <button
        type="button"
        className="ghost"
        data-testid="composer-attach"
        onClick={() => input.current?.click()}
      >
        Attach
      </button>
      <input
        ref={input}
        type="file"
        multiple
        hidden
        data-testid="composer-file-input"
        onChange={(event) => {
          const files = [...(event.target.files ?? [])];
          // The same file can be picked again after it was removed.
          event.target.value = '';
          void attach(files);
        }}
      />
    </>
  );
}
