// Marks the terms of a search in the mail frame's text (mark-ranges.ts finds them). SECURITY: text nodes only.
// Each match is cut out of its text node with splitText and wrapped in a <mark> the app creates; nothing of
// the mail is read as markup, and attributes, links and styles are left as they were. DOM-dependent: tested
// in Chromium by test/e2e/long-thread.test.ts.
import { markRanges } from '../search/mark-ranges.ts';
import type { SearchTerm } from '../search/search-terms.ts';

export function markTextNodes(root: HTMLElement, terms: readonly SearchTerm[]): number {
  if (terms.length === 0) return 0;
  const doc = root.ownerDocument;
  const walker = doc.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  const nodes: Text[] = [];
  for (let node = walker.nextNode(); node; node = walker.nextNode()) nodes.push(node as Text);
  let marked = 0;
  for (const node of nodes) {
    const ranges = markRanges(node.data, terms);
    // From the end, so the earlier offsets stay valid as the node is split.
    for (const range of ranges.reverse()) {
      const match = node.splitText(range.start);
      match.splitText(range.end - range.start);
      const mark = doc.createElement('mark');
      mark.className = 'search-term';
      match.replaceWith(mark);
      mark.append(match);
      marked++;
    }
  }
  return marked;
}
