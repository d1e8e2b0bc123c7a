import { useMemo } from 'react';
import type { Attachment } from '../../../shared/contract/index.ts';
import { sanitizeMailHtml } from '../mail/sanitize-html.ts';
import { useSearchTerms } from '../search/use-search-terms.ts';
import { useMailStore } from '../stores/mail-store.ts';
import { useInlineParts } from './inline-parts.ts';
import { MailFrame } from './MailFrame.tsx';

export function HtmlBody({
  messageId,
  html,
  attachments,
}: {
  messageId: number;
  html: string;
  attachments: Attachment[];
}) {
  const loadRemote = useMailStore((state) => state.imagesAllowed.has(messageId));
  const allowImages = useMailStore((state) => state.allowImages);
  const askToOpenLink = useMailStore((state) => state.askToOpenLink);
  const terms = useSearchTerms();
  const parts = useInlineParts(messageId, html, attachments, loadRemote);
  const mail = useMemo(() => sanitizeMailHtml(html, { loadRemote, parts }), [html, loadRemote, parts]);

  const onLink = (index: number) => {
    const link = mail.links[index];
    if (link) askToOpenLink(link.href, link.text);
  };

  return (
    <>
      {!loadRemote && mail.blockedRemote > 0 && (
        <div className="remote-notice">
          <span>
            {mail.blockedRemote} {mail.blockedRemote === 1 ? 'image' : 'images'} blocked
          </span>
          <span aria-hidden="true">—</span>
          <button
            type="button"
            className="ghost small"
            data-testid="load-images"
            onClick={() => allowImages(messageId)}
          >
            Load images
          </button>
        </div>
      )}
      <MailFrame mail={mail} loadRemote={loadRemote} onLink={onLink} terms={terms} />
    </>
  );
}
