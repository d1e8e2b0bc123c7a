// The label picker's checkboxes (DESIGN §12, "Labels by hand"), pure: tested in label-picks.test.ts. Each
// label shows whether all, some or none of the chosen conversations carry it; a click makes it all (from
// some or none) or none (from all), and Apply sends only what the clicks changed.
import type { SelectionLabel } from '../../../shared/contract/index.ts';

export type LabelCheck = 'all' | 'some' | 'none';

export function checkOf(
  label: SelectionLabel,
  threads: number,
  wanted: ReadonlyMap<string, boolean>,
): LabelCheck {
  const want = wanted.get(label.name);
  if (want !== undefined) return want ? 'all' : 'none';
  if (label.threads === 0) return 'none';
  return label.threads >= threads ? 'all' : 'some';
}

export function clicked(
  label: SelectionLabel,
  threads: number,
  wanted: ReadonlyMap<string, boolean>,
): Map<string, boolean> {
  const next = new Map(wanted);
  next.set(label.name, checkOf(label, threads, wanted) !== 'all');
  return next;
}

/** What Apply sends: the labels a click changed, and the one to create. */
export function changesOf(
  labels: readonly SelectionLabel[],
  threads: number,
  wanted: ReadonlyMap<string, boolean>,
  create: string | null,
): { add: string[]; remove: string[] } {
  const add: string[] = [];
  const remove: string[] = [];
  for (const label of labels) {
    const before = checkOf(label, threads, new Map());
    const after = checkOf(label, threads, wanted);
    if (after === 'all' && before !== 'all') add.push(label.name);
    if (after === 'none' && before !== 'none') remove.push(label.name);
  }
  if (create !== null && create.trim() !== '') add.push(create.trim());
  return { add, remove };
}

/** The labels whose name contains the typed text (any case), and whether "Create label" is offered. */
export function filtered(
  labels: readonly SelectionLabel[],
  text: string,
): { shown: SelectionLabel[]; canCreate: boolean } {
  const typed = text.trim().toLowerCase();
  const shown = typed === '' ? [...labels] : labels.filter((l) => l.name.toLowerCase().includes(typed));
  return { shown, canCreate: typed !== '' && !labels.some((l) => l.name.toLowerCase() === typed) };
}
