// The images an HTML mail shows from its own parts (`cid:`, issue 29 §1), once the person has loaded images for
// it: each image part that has a Content-ID the body names is read a bounded range at a time (read-attachment.ts),
// typed as the raster type previewKind gives it (never SVG), and made a blob: URL for the mail frame.
import { useEffect, useState } from 'react';
import { cidOf } from '../../../shared/content-id.ts';
import type { Attachment } from '../../../shared/contract/index.ts';
import type { InlineParts } from '../mail/resource-url.ts';
import { previewKind } from './preview-kind.ts';
import { readAttachment } from './read-attachment.ts';

const none: InlineParts = new Map();

/** The Content-IDs (lower case) an HTML body's `cid:` references name: a cheap scan, the sanitizer decides. */
function namedContentIds(html: string): Set<string> {
  const ids = new Set<string>();
  for (const m of html.matchAll(/cid:[^\s"'<>)]+/gi)) {
    const id = cidOf(m[0]);
    if (id) ids.add(id);
  }
  return ids;
}

export function useInlineParts(
  message: number,
  html: string,
  attachments: readonly Attachment[],
  load: boolean,
): InlineParts {
  const [parts, setParts] = useState<InlineParts>(none);
  useEffect(() => {
    if (!load) return;
    const named = namedContentIds(html);
    const wanted = attachments
      .map((a, index) => ({ a, index, kind: previewKind(a.name, a.contentType) }))
      .filter(({ a, kind }) => kind.kind === 'image' && a.contentId && named.has(a.contentId.toLowerCase()));
    if (wanted.length === 0) return;
    const stop = new AbortController();
    const urls: string[] = [];
    void (async () => {
      const found = new Map<string, string>();
      for (const { a, index, kind } of wanted) {
        if (kind.kind !== 'image') continue;
        const read = await readAttachment(message, index, kind.maxBytes, true, stop.signal);
        if (stop.signal.aborted) return;
        if (!read?.ok) continue;
        // SECURITY: typed by previewKind as PNG, JPEG, GIF or WebP only: an SVG part is never an inline image.
        const url = URL.createObjectURL(new Blob([read.bytes], { type: kind.type }));
        urls.push(url);
        found.set((a.contentId as string).toLowerCase(), url);
      }
      if (!stop.signal.aborted) setParts(found);
    })();
    return () => {
      stop.abort();
      for (const url of urls) URL.revokeObjectURL(url);
      setParts(none);
    };
  }, [message, html, attachments, load]);
  return parts;
}
