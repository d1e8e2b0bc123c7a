import { useState } from 'react';
import type { MessageView } from '../../../shared/contract/index.ts';
import { HtmlBody } from './HtmlBody.tsx';
import { PlainBody } from './PlainBody.tsx';

// SECURITY (DESIGN §12): every body is mail, never Skimmer's word, and is marked as such.
export function MessageBody({ message }: { message: MessageView }) {
  const hasHtml = message.html !== null && message.html.trim() !== '';
  const [view, setView] = useState<'html' | 'text'>(hasHtml ? 'html' : 'text');
  const showHtml = hasHtml && view === 'html';

  return (
    <div className="untrusted" data-testid="untrusted-body">
      <div className="untrusted-bar">
        <span className="untrusted-badge">Untrusted email content</span>
        {hasHtml && message.text.trim() !== '' && (
          <button type="button" className="ghost small" onClick={() => setView(showHtml ? 'text' : 'html')}>
            {showHtml ? 'Show plain text' : 'Show formatted'}
          </button>
        )}
      </div>
      {showHtml && message.html !== null ? (
        <HtmlBody messageId={message.id} html={message.html} attachments={message.attachments} />
      ) : (
        <PlainBody text={message.text} />
      )}
    </div>
  );
}
