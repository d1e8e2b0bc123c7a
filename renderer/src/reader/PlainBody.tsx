import { useMemo } from 'react';
import { splitPlainTextLinks } from '../mail/plain-text-links.ts';
import { useMailStore } from '../stores/mail-store.ts';

// Plain text is rendered as React text (escaped). Web and mailto addresses open through the confirmation.
export function PlainBody({ text }: { text: string }) {
  const askToOpenLink = useMailStore((state) => state.askToOpenLink);
  const pieces = useMemo(() => splitPlainTextLinks(text), [text]);

  if (text.trim() === '') return <p className="plain-body empty">(This message has no text.)</p>;
  return (
    <div className="plain-body">
      {pieces.map((piece) =>
        piece.kind === 'text' ? (
          <span key={piece.start}>{piece.text}</span>
        ) : (
          <button
            key={piece.start}
            type="button"
            className="text-link"
            onClick={() => askToOpenLink(piece.text, piece.text)}
          >
            {piece.text}
          </button>
        ),
      )}
    </div>
  );
}
