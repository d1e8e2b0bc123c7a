import { useEffect, useRef, useState } from 'react';
import { handleShortcut } from '../keyboard/shortcuts.ts';
import { mailFrameShell, mountMail } from '../mail/mail-frame-document.ts';
import type { SanitizedMail } from '../mail/sanitize-html.ts';

import type { SearchTerm } from '../search/search-terms.ts';

type MailFrameProps = {
  mail: SanitizedMail;
  loadRemote: boolean;
  onLink(index: number): void;
  terms?: readonly SearchTerm[]; // marked in the mail's text (mark-text-nodes.ts)
};
const noTerms: readonly SearchTerm[] = [];

const maxHeight = 50_000;

export function MailFrame({ mail, loadRemote, onLink, terms = noTerms }: MailFrameProps) {
  const frame = useRef<HTMLIFrameElement>(null);
  const [height, setHeight] = useState(120);
  const linkHandler = useRef(onLink);
  linkHandler.current = onLink;

  useEffect(() => {
    const element = frame.current;
    if (!element) return;
    let unmount = () => {};
    const onLoad = () => {
      // Only the shell (about:srcdoc, with its own CSP) receives the mail, never the initial about:blank.
      if (element.contentDocument?.URL !== 'about:srcdoc') return;
      unmount();
      unmount = mountMail(
        element,
        mail,
        {
          onLink: (index) => linkHandler.current(index),
          onKeyDown: handleShortcut,
          onHeight: (pixels) => setHeight(Math.min(Math.max(pixels, 40), maxHeight)),
        },
        terms,
      );
    };
    element.addEventListener('load', onLoad);
    element.srcdoc = mailFrameShell(loadRemote);
    return () => {
      element.removeEventListener('load', onLoad);
      unmount();
    };
  }, [mail, loadRemote, terms]);

  // SECURITY: sandbox without allow-scripts: nothing in the frame can run, so the mail cannot reach this page
  // even though allow-same-origin makes the frame same-origin with it. Same-origin is what lets the app (not
  // the mail) write the sanitized content in, apply its styles through CSSOM, see link clicks and measure the
  // height. No allow-popups, allow-forms, allow-top-navigation or allow-modals: the mail can open, submit or
  // navigate nothing, and links carry no href at all (mail/sanitize-html.ts).
  return (
    <iframe
      ref={frame}
      className="mail-frame"
      data-testid="mail-frame"
      title="Email content (untrusted)"
      sandbox="allow-same-origin"
      referrerPolicy="no-referrer"
      style={{ height }}
    />
  );
}
