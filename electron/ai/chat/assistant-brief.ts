// What the chat's model is told about the person it helps (issue 17, "The chat, from the walk-through"): today's
// date in the user's time zone, so "what came in this month?" has an answer, and — only for a run that may read
// mail, which the user has agreed to send to this service (DESIGN §5) — the user's own addresses, so "mail from
// me" and "reply to Ana" are about the right people. Plain chat sends the user's words and the date, nothing
// from the mailbox. Pure; tested in assistant-brief.test.ts.

export type BriefInput = {
  now: Date;
  /** An IANA zone; the system's when absent. */
  timeZone?: string;
  /** The user's own addresses; left out for plain chat. */
  addresses?: readonly { address: string; name: string | null }[];
};

export function assistantBrief({ now, timeZone, addresses }: BriefInput): string {
  const zone = timeZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone;
  const spoken = new Intl.DateTimeFormat('en-GB', {
    weekday: 'long',
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: zone,
  }).format(now);
  // en-CA writes the date as YYYY-MM-DD, the form mail tools' before:/after: take.
  const iso = new Intl.DateTimeFormat('en-CA', { timeZone: zone }).format(now);
  const lines = [
    'You are the assistant inside Skimmer, the user’s mail app.',
    `Today is ${spoken} (${iso}), time zone ${zone}.`,
  ];
  if (addresses && addresses.length > 0) {
    const named = addresses.map((a) => (a.name ? `${a.name} <${a.address}>` : a.address));
    lines.push(`The user’s own addresses (mail from these is from the user): ${named.join(', ')}.`);
  }
  return lines.join('\n');
}
