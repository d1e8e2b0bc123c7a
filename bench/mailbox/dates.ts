// Dates as mail writes them: the Date header (RFC 5322 §3.3) and the asctime stamp of an mbox From_ line.
export function rfc2822Date(utc: number, offsetMin: number): string {
  const d = new Date(utc + offsetMin * 60000);
  const dayName = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'][d.getUTCDay()];
  const mon = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'][
    d.getUTCMonth()
  ];
  const sign = offsetMin < 0 ? '-' : '+';
  const abs = Math.abs(offsetMin);
  const tz = `${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}${String(abs % 60).padStart(2, '0')}`;
  const hms = d.toISOString().slice(11, 19);
  return `${dayName}, ${d.getUTCDate()} ${mon} ${d.getUTCFullYear()} ${hms} ${tz}`;
}

export function asctime(utc: number): string {
  const s = new Date(utc).toUTCString(); // "Mon, 02 Jan 2023 10:04:05 GMT"
  const [, day, date, mon, year, time] = /^(\w+), (\d+) (\w+) (\d+) ([\d:]+)/.exec(s) ?? [];
  return `${day} ${mon} ${String(Number(date)).padStart(2, ' ')} ${time} ${year}`;
}
