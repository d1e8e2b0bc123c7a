// A series' RRULE in words ("Every week on Tuesday, 10 times"), from the rule itself: SECURITY: never by
// expanding it, so COUNT=1000000000 costs what COUNT=2 does.
import type ICAL from 'ical.js';

const units: Record<string, string> = {
  SECONDLY: 'second',
  MINUTELY: 'minute',
  HOURLY: 'hour',
  DAILY: 'day',
  WEEKLY: 'week',
  MONTHLY: 'month',
  YEARLY: 'year',
};
const days: Record<string, string> = {
  MO: 'Monday',
  TU: 'Tuesday',
  WE: 'Wednesday',
  TH: 'Thursday',
  FR: 'Friday',
  SA: 'Saturday',
  SU: 'Sunday',
};

function dayName(code: string): string {
  const m = /^([+-]?\d{1,2})?(MO|TU|WE|TH|FR|SA|SU)$/.exec(code);
  if (!m) return code;
  const n = m[1] ? Number(m[1]) : 0;
  const name = days[m[2] as string] as string;
  if (!n) return name;
  const nth =
    n === -1
      ? 'last'
      : n > 0
        ? (['first', 'second', 'third', 'fourth', 'fifth'][n - 1] ?? `${n}th`)
        : `${-n}th-last`;
  return `the ${nth} ${name}`;
}

function list(items: string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

/** The rule as a sentence. */
export function ruleInWords(r: ICAL.Recur): string {
  const unit = units[r.freq] ?? 'time';
  const interval = r.interval > 1 ? `Every ${r.interval} ${unit}s` : `Every ${unit}`;
  const parts: string[] = [interval];
  const byday = (r.parts.BYDAY ?? []) as string[];
  if (byday.length) parts[0] += ` on ${list(byday.slice(0, 7).map(dayName))}`;
  const bymonthday = (r.parts.BYMONTHDAY ?? []) as number[];
  if (bymonthday.length) parts[0] += ` on day ${list(bymonthday.slice(0, 31).map(String))}`;
  if (r.count) parts.push(`${r.count} times`);
  else if (r.until) parts.push(`until ${r.until.toJSDate().toISOString().slice(0, 10)}`);
  return parts.join(', ');
}
