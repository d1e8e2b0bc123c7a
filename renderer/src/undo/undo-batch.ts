// Which mail changes the Undo bar offers to take back, and how it names them. One run of the assistant can
// make several changes (three approved archive calls are three undo entries), and the user thinks of them as
// one: "Archived 3 messages · Undo". The bar offers the entries that appeared since the run started.
// Pure; tested in undo-batch.test.ts.
import type { UndoView } from '../../../shared/contract/index.ts';

// The open entries (newest first) that are newer than the newest one seen before; all of them when nothing
// was seen before (then only the newest, since older ones are not this run's).
export function newSince(entries: readonly UndoView[], baselineId: number | null): UndoView[] {
  if (baselineId === null) return entries.slice(0, 1);
  return entries.filter((entry) => entry.id > baselineId);
}

// The bar's batch can still be undone while every entry of it is open (`mail:undo {id}` each), whatever came
// after it.
export function stillOpen(batch: readonly UndoView[], entries: readonly UndoView[]): boolean {
  const open = new Set(entries.map((entry) => entry.id));
  return batch.length > 0 && batch.every((entry) => open.has(entry.id));
}

// Descriptions that differ only in their count of messages add up ("Archived 1 message" twice reads
// "Archived 2 messages"); the others are listed. Oldest first, in the order they happened.
export function undoSummary(batch: readonly UndoView[]): string {
  // Keyed by the words around the count; a description without a count is its own group.
  const groups = new Map<string, { words: [string, string] | null; count: number; text: string }>();
  for (const entry of [...batch].reverse()) {
    const match = /^(.*?)(\d+) messages?(.*)$/.exec(entry.description);
    if (!match) {
      groups.set(`#${entry.id}`, { words: null, count: 0, text: entry.description });
      continue;
    }
    const [, head = '', count = '0', tail = ''] = match;
    const group = groups.get(`=${head}\u0000${tail}`);
    if (group) group.count += Number(count);
    else groups.set(`=${head}\u0000${tail}`, { words: [head, tail], count: Number(count), text: '' });
  }
  return [...groups.values()].map(groupText).join('; ');
}

function groupText({ words, count, text }: { words: [string, string] | null; count: number; text: string }) {
  return words ? `${words[0]}${count} message${count === 1 ? '' : 's'}${words[1]}` : text;
}
