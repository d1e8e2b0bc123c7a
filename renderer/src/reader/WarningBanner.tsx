import type { MessageWarning, WarningKind } from '../../../shared/contract/index.ts';
import { displayText } from '../mail/display-text.ts';

// What Skimmer saw in a message before you trust its sender (DESIGN §11, "Warnings"; §12), above its body. The
// sentences are Skimmer's, but they quote the mail (a domain, a hidden line): rendered as text, never as markup.
const titles: Record<WarningKind, string> = {
  lookalike: 'Look-alike sender',
  authentication: 'Failed authentication',
  'reply-to': 'Replies go elsewhere',
  'hidden-text': 'Hidden text for an AI',
  'link-mismatch': 'Misleading link',
};

export function WarningBanner({ warnings }: { warnings: readonly MessageWarning[] }) {
  if (warnings.length === 0) return null;
  return (
    <div className="warning-banner" role="alert" data-testid="warning-banner">
      <strong className="warning-banner-title">Be careful with this message</strong>
      <ul>
        {warnings.map((w) => (
          <li key={w.kind} data-testid="warning" data-kind={w.kind}>
            <span className="warning-kind">{titles[w.kind]}:</span> {displayText(w.text)}
          </li>
        ))}
      </ul>
    </div>
  );
}
