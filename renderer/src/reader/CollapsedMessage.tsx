import type { MessageView } from '../../../shared/contract/index.ts';
import { formatFullDate, formatListDate } from '../format/format-time.ts';
import { displayText } from '../mail/display-text.ts';
import { messagePreview } from './message-preview.ts';

// A read message folded to one line: sender, time and its first words (mail text, shown by React as text).
// It is a button, so a click, Enter or Space opens it and Tab reaches it. Its warnings are never folded away:
// a message with any shows that it has them on the line, and opening it shows them in full (WarningBanner).
export function CollapsedMessage({ message, onOpen }: { message: MessageView; onOpen(): void }) {
  const fromName = displayText(message.from.name);
  const fromAddress = displayText(message.from.address);
  const sender = fromName || fromAddress;
  const warnings = message.warnings.length;
  return (
    <button
      type="button"
      className="message-collapsed"
      data-testid="message-collapsed"
      data-message-id={message.id}
      aria-expanded={false}
      aria-label={`Message from ${sender}, ${formatFullDate(message.date)}: show it`}
      onClick={onOpen}
    >
      <strong className="collapsed-from">{sender}</strong>
      {warnings > 0 && (
        <span className="collapsed-warning" data-testid="collapsed-warning">
          {warnings === 1 ? '1 warning' : `${warnings} warnings`}
        </span>
      )}
      <span className="collapsed-preview">{messagePreview(displayText(message.text))}</span>
      <time className="collapsed-date" dateTime={new Date(message.date).toISOString()}>
        {formatListDate(message.date)}
      </time>
    </button>
  );
}
