// Dates in the thread list and reader, and durations for import progress. Local time, the user's locale.

const sameDay = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit' });
const sameYear = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric' });
const otherYear = new Intl.DateTimeFormat(undefined, { year: 'numeric', month: 'short', day: 'numeric' });
const full = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

// Short form for lists: the time today, the day this year, the full date otherwise.
export function formatListDate(epochMs: number, now = new Date()): string {
  const date = new Date(epochMs);
  if (date.toDateString() === now.toDateString()) return sameDay.format(date);
  if (date.getFullYear() === now.getFullYear()) return sameYear.format(date);
  return otherYear.format(date);
}

/** The day alone, with its year: "2 Dec 2026" (in the user's locale's order). */
export function formatDay(epochMs: number): string {
  return otherYear.format(new Date(epochMs));
}

export function formatFullDate(epochMs: number): string {
  return full.format(new Date(epochMs));
}

export function formatDuration(seconds: number): string {
  if (seconds < 1) return 'under a second';
  if (seconds < 90) return `${Math.round(seconds)} s`;
  if (seconds < 90 * 60) return `${Math.round(seconds / 60)} min`;
  return `${(seconds / 3600).toFixed(1)} h`;
}
