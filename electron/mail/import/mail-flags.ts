// The state a mailbox file kept with each message (DESIGN §11): read, starred, deleted. A Maildir keeps it in each
// file's name, which is what a Maildir client updates, so there the name alone decides; an mbox keeps it in the
// message's own headers, which is all a lone .eml has too. Replied (Maildir R, X-Status A, X-Mozilla-Status 0x0002) is
// not read: a message on this computer has nowhere to keep it (the messages table has no such column; only an IMAP
// copy's flags are stored, in imap_locations). Imported read, starred or in Skimmer's own Trash (import-run.ts).

/** `trashed`: deleted in the mailbox it came from, not yet expunged; it is imported into the Trash. */
export type MailFlags = { seen: boolean; flagged: boolean; trashed: boolean };

// A Maildir file's name ends in its flags, after ":2," (";2," or "!2," where ':' cannot be in a name), as capital
// letters in order: S seen, R replied, T trashed, F flagged, D draft, P passed (https://cr.yp.to/proto/maildir.html).
// A file without them (in new/, say) is unread.
export function maildirFlags(name: string): MailFlags {
  const info = /[:;!]2,([A-Za-z]*)$/.exec(name)?.[1] ?? '';
  return { seen: info.includes('S'), flagged: info.includes('F'), trashed: info.includes('T') };
}

type HeaderLine = { key: string; line: string };

// X-Mozilla-Status bits (Thunderbird's nsMsgMessageFlags): Read, Replied, Marked (starred), Expunged.
const mozRead = 0x0001;
const mozMarked = 0x0004;
const mozExpunged = 0x0008;

/**
 * What a message's status headers say, or null when it has none: Thunderbird's `X-Mozilla-Status` (four hex digits, a
 * bitfield), which Thunderbird keeps current and so wins, as in Thunderbird's own reading of a mailbox; else
 * `Status` (R read; O only says it is no longer new, so it stays unread) with `X-Status` (F flagged, D deleted), as
 * mutt, Pine and the Berkeley mail tools write them. The first of each header counts. Mailparser's header lines and
 * parse-direct.ts's are the same `{key, line}` list, so both readers hand the import the same.
 */
export function statusHeaderFlags(lines: readonly HeaderLine[]): MailFlags | null {
  const value = (key: string) => {
    const line = lines.find((h) => h.key === key)?.line;
    return line === undefined ? null : line.slice(line.indexOf(':') + 1).trim();
  };
  const moz = value('x-mozilla-status');
  if (moz !== null && /^[0-9A-Fa-f]{4}$/.test(moz)) {
    const bits = Number.parseInt(moz, 16);
    return {
      seen: (bits & mozRead) !== 0,
      flagged: (bits & mozMarked) !== 0,
      trashed: (bits & mozExpunged) !== 0,
    };
  }
  const status = value('status');
  const xStatus = value('x-status');
  if (status === null && xStatus === null) return null;
  return {
    seen: status?.includes('R') ?? false,
    flagged: xStatus?.includes('F') ?? false,
    trashed: xStatus?.includes('D') ?? false,
  };
}
