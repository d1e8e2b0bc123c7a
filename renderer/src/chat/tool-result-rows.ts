// A tool's result as a person reads it (issue 17, "tool results show as readable rows"): mail found by
// search_mail as rows of subject, sender and date, labels as name and count, a change as a sentence; the raw
// JSON stays behind "Details". Anything else (read_thread's untrusted blocks, an error) is shown as before.
// The subjects and senders come from mail: they are text, rendered as text. Pure; tested in
// tool-result-rows.test.ts.

type MailRow = { id: number; subject: string; from: string; date: string };
export type ResultRows =
  | { kind: 'mail'; rows: MailRow[] }
  | { kind: 'labels'; rows: { name: string; count: number }[] }
  | { kind: 'sentence'; text: string };

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

function parsed(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

// "2026-11-30T09:15:00.000Z" as the list shows dates: the day, and the time when it is today.
export function shortDate(iso: string, now: Date, timeZone?: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const day = (d: Date) => new Intl.DateTimeFormat('en-CA', { timeZone }).format(d);
  if (day(date) === day(now)) {
    return new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', timeZone }).format(date);
  }
  return new Intl.DateTimeFormat('en-GB', {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    timeZone,
  }).format(date);
}

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

export function resultRows(
  name: string,
  text: string,
  now = new Date(),
  timeZone?: string,
): ResultRows | null {
  const value = parsed(text);
  if (value === undefined) return null;
  if (name === 'search_mail' && Array.isArray(value)) {
    const rows = value.filter(isRecord).map((h) => ({
      id: typeof h.id === 'number' ? h.id : 0,
      subject: str(h.subject) || '(no subject)',
      from: str(h.from),
      date: shortDate(str(h.date), now, timeZone),
    }));
    return rows.length === value.length ? { kind: 'mail', rows } : null;
  }
  if (name === 'list_labels' && Array.isArray(value)) {
    const rows = value.filter(isRecord).map((l) => ({ name: str(l.name), count: Number(l.count) || 0 }));
    return rows.length === value.length ? { kind: 'labels', rows } : null;
  }
  if (!isRecord(value)) return null;
  if (typeof value.changed === 'number')
    return { kind: 'sentence', text: `Changed ${plural(value.changed, 'message')}.` };
  if (typeof value.draftId === 'number') return { kind: 'sentence', text: `Saved draft ${value.draftId}.` };
  if (typeof value.queued === 'number') {
    return {
      kind: 'sentence',
      text: `Queued to send at ${shortDate(str(value.sendsAt), now, timeZone)}; Undo can still stop it.`,
    };
  }
  return null;
}
