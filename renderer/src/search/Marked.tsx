import { Fragment, useMemo } from 'react';
import { markRanges } from './mark-ranges.ts';
import type { SearchTerm } from './search-terms.ts';

// SECURITY: mail text stays text. The parts are React text children and <mark> elements Skimmer makes; no part
// of `text` is ever read as markup, whatever it holds (`<b>`, `&lt;`, …).
export function Marked({ text, terms }: { text: string; terms: readonly SearchTerm[] }) {
  const parts = useMemo(() => {
    const ranges = markRanges(text, terms);
    if (ranges.length === 0) return null;
    const out: { text: string; marked: boolean; at: number }[] = [];
    let at = 0;
    for (const range of ranges) {
      if (range.start > at) out.push({ text: text.slice(at, range.start), marked: false, at });
      out.push({ text: text.slice(range.start, range.end), marked: true, at: range.start });
      at = range.end;
    }
    if (at < text.length) out.push({ text: text.slice(at), marked: false, at });
    return out;
  }, [text, terms]);
  if (parts === null) return <>{text}</>;
  return (
    <>
      {parts.map((part) =>
        part.marked ? (
          <mark key={part.at} className="search-term" data-testid="search-mark">
            {part.text}
          </mark>
        ) : (
          <Fragment key={part.at}>{part.text}</Fragment>
        ),
      )}
    </>
  );
}
