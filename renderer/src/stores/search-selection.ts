// The rules of a selection in the search results (DESIGN §12, "Several at once"), pure: tested in
// search-selection.test.ts. A hit is one message (the search lists a conversation's newest match), the
// selection is of conversations: checking a hit checks its conversation, every message of it, so were two
// hits of one conversation shown, both would show checked; the counts are of conversations.
// `allInView` here means "every conversation that matches this search" (the `{query}` scope without ids),
// which the main process resolves; the page shows at most 200 hits.
import type { BulkAction } from '../../../shared/contract/index.ts';
import { type Chosen, type HeaderCheck, selectionKeyAction } from './thread-selection.ts';

type Hit = { threadId: number };

/** The conversations of the hits shown, each once, in the order they first appear. */
export function hitThreads(hits: readonly Hit[]): number[] {
  return [...new Set(hits.map((hit) => hit.threadId))];
}

/** Whether a hit shows checked: its conversation is selected, or every match is. */
export function hitChecked(chosen: Chosen, hit: Hit): boolean {
  return chosen.allInView || chosen.ids.has(hit.threadId);
}

/** The hit at `index`'s conversation in or out; out of "every match", the other shown ones stay selected. */
export function hitToggled(chosen: Chosen, hits: readonly Hit[], index: number): Chosen {
  const hit = hits[index];
  if (!hit) return chosen;
  const ids = new Set(chosen.allInView ? hitThreads(hits) : chosen.ids);
  if (chosen.allInView || ids.has(hit.threadId)) ids.delete(hit.threadId);
  else ids.add(hit.threadId);
  return { ids, allInView: false };
}

/** Shift-click: the conversations of the hits from the anchor to `index`, added to what is selected. */
export function hitRange(chosen: Chosen, hits: readonly Hit[], anchor: number | null, index: number): Chosen {
  if (!hits[index]) return chosen;
  const from = Math.min(anchor ?? index, hits.length - 1);
  const ids = new Set(chosen.allInView ? hitThreads(hits) : chosen.ids);
  for (const hit of hits.slice(Math.min(from, index), Math.max(from, index) + 1)) ids.add(hit.threadId);
  return { ids, allInView: false };
}

/** The header checkbox: whether all, some or none of the conversations shown are selected. */
export function hitsHeaderCheck(chosen: Chosen, hits: readonly Hit[]): HeaderCheck {
  if (chosen.allInView) return 'all';
  const shown = hitThreads(hits);
  const on = shown.filter((id) => chosen.ids.has(id)).length;
  if (on === 0) return chosen.ids.size > 0 ? 'some' : 'none';
  return on === shown.length ? 'all' : 'some';
}

/**
 * "Select all conversations that match this search" is offered once every conversation shown is selected:
 * the hits are the newest 200 matching messages, and the search may match more than they show.
 */
export function offersAllMatching(chosen: Chosen, hits: readonly Hit[]): boolean {
  return !chosen.allInView && hits.length > 0 && hitsHeaderCheck(chosen, hits) === 'all';
}

/**
 * What a conversation key does to a selection of search results: as in the list (thread-selection.ts
 * `selectionKeyAction`), but a hit carries no star or read flag, so `s` stars and `u` marks read, the first
 * of the two choices, as for rows of the list that are not loaded.
 */
export function hitsSelectionKeyAction(key: string, chosen: Chosen): BulkAction | null {
  return selectionKeyAction(key, chosen, new Map());
}
