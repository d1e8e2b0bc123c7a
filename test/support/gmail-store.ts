// Gmail's model for the Gmail-like IMAP fixture (gmail-imap.ts), from Google's "IMAP Extensions" page: one
// store of messages, each with flags and labels; a mailbox is a view of the labels. INBOX holds what has
// \Inbox, a user label's mailbox what has that label, [Gmail]/All Mail everything not in Trash or Spam,
// [Gmail]/Starred what is \Flagged. COPY to a mailbox adds its label; \Deleted and EXPUNGE in a mailbox take
// it off (in INBOX: the message is archived, Gmail's default); Trash and Spam hide a message from every other
// mailbox. Each mailbox numbers what it shows with its own UIDs.
//
// Google's "How actions sync in IMAP" (support.google.com/mail/answer/77657): "Move a message to a folder:
// Apply a label", "Delete a message in inbox: Remove the message from inbox", "Delete a message from a folder:
// Remove that label". A MOVE is a COPY and an expunge of the source (RFC 6851 §3.3), and All Mail stands for
// no label, so a MOVE (or COPY and EXPUNGE) from INBOX into All Mail archives: only \Inbox goes.
import { field, parsePart } from './imap-mime.ts';

export type GmailMessage = {
  msgId: bigint;
  thrId: bigint;
  raw: Buffer;
  date: Date;
  flags: Set<string>;
  /** \Inbox, \Sent, \Draft, \Important and user labels; \Trash and \Spam mark the two exclusive boxes. */
  labels: Set<string>;
};

export type Box = { path: string; use?: string; flags?: string[]; holds: (m: GmailMessage) => boolean };
export type View = { validity: number; next: number; uids: Map<GmailMessage, number> };

export const inTrash = (m: GmailMessage) => m.labels.has('\\Trash') || m.labels.has('\\Spam');
const visible = (label: string) => (m: GmailMessage) => m.labels.has(label) && !inTrash(m);
const system: Box[] = [
  { path: 'INBOX', holds: visible('\\Inbox') },
  { path: '[Gmail]', flags: ['\\Noselect', '\\HasChildren'], holds: () => false },
  { path: '[Gmail]/All Mail', use: '\\All', holds: (m) => !inTrash(m) },
  { path: '[Gmail]/Drafts', use: '\\Drafts', holds: visible('\\Draft') },
  { path: '[Gmail]/Important', use: '\\Important', holds: visible('\\Important') },
  { path: '[Gmail]/Sent Mail', use: '\\Sent', holds: visible('\\Sent') },
  { path: '[Gmail]/Spam', use: '\\Junk', holds: (m) => m.labels.has('\\Spam') },
  { path: '[Gmail]/Starred', use: '\\Flagged', holds: (m) => m.flags.has('\\Flagged') && !inTrash(m) },
  { path: '[Gmail]/Trash', use: '\\Trash', holds: (m) => m.labels.has('\\Trash') },
];
// The label a mailbox stands for: what COPY adds and removing takes off.
export const labelOf: Record<string, string> = {
  INBOX: '\\Inbox',
  '[Gmail]/Drafts': '\\Draft',
  '[Gmail]/Important': '\\Important',
  '[Gmail]/Sent Mail': '\\Sent',
  '[Gmail]/Spam': '\\Spam',
  '[Gmail]/Trash': '\\Trash',
};

/** The store; `onChange` runs after every change to what the mailboxes show (for IDLE). */
export function createGmailStore(onChange: () => void) {
  const messages: GmailMessage[] = [];
  const userLabels = new Set<string>();
  const views = new Map<string, View>();
  let nextId = 1000n;

  const boxes = (): Box[] => [
    ...system,
    ...[...userLabels].sort().map((l) => ({ path: l, holds: visible(l) })),
  ];
  const box = (path: string) =>
    boxes().find((b) => b.path === (path.toUpperCase() === 'INBOX' ? 'INBOX' : path));
  // Gives every message that entered a mailbox a new UID there and forgets those that left.
  const reconcile = () => {
    for (const b of boxes()) {
      if (b.flags?.includes('\\Noselect')) continue;
      const view = views.get(b.path) ?? { validity: 1, next: 1, uids: new Map() };
      views.set(b.path, view);
      for (const m of [...view.uids.keys()]) if (!messages.includes(m) || !b.holds(m)) view.uids.delete(m);
      for (const m of messages) if (b.holds(m) && !view.uids.has(m)) view.uids.set(m, view.next++);
    }
    onChange();
  };
  const uidsOf = (path: string) => [...(views.get(path)?.uids.values() ?? [])].sort((a, b) => a - b);
  const byUid = (path: string, uid: number) =>
    [...(views.get(path)?.uids ?? [])].find(([, u]) => u === uid)?.[0];

  const addLabel = (m: GmailMessage, label: string) => {
    if (label === '\\Starred') m.flags.add('\\Flagged');
    else if (label.startsWith('\\')) m.labels.add(label);
    else {
      userLabels.add(label);
      m.labels.add(label);
    }
  };
  const removeLabel = (m: GmailMessage, label: string) => {
    if (label === '\\Starred') m.flags.delete('\\Flagged');
    else m.labels.delete(label);
  };
  // What COPY into a mailbox does to a message.
  const fileInto = (m: GmailMessage, path: string) => {
    if (path === '[Gmail]/Starred') m.flags.add('\\Flagged');
    else if (path !== '[Gmail]/All Mail') addLabel(m, labelOf[path] ?? path);
  };
  // What \Deleted and EXPUNGE in a mailbox do: the label goes; from All Mail the message goes to Trash, and
  // from Trash or Spam it is gone for good.
  const takeOut = (m: GmailMessage, path: string) => {
    if (path === '[Gmail]/All Mail') m.labels.add('\\Trash');
    else if (path === '[Gmail]/Trash' || path === '[Gmail]/Spam') messages.splice(messages.indexOf(m), 1);
    else if (path === '[Gmail]/Starred') m.flags.delete('\\Flagged');
    else removeLabel(m, labelOf[path] ?? path);
  };
  const store = (raw: Buffer, labels: string[], flags: string[]): GmailMessage => {
    nextId += 1n;
    const ref = field(parsePart(raw).header, 'in-reply-to');
    const thread = messages.find((o) => ref && field(parsePart(o.raw).header, 'message-id') === ref);
    const m: GmailMessage = {
      msgId: nextId,
      thrId: thread?.thrId ?? nextId,
      raw,
      date: new Date(),
      flags: new Set(flags),
      labels: new Set(),
    };
    for (const l of labels) addLabel(m, l);
    messages.push(m);
    return m;
  };

  return {
    messages,
    userLabels,
    views,
    boxes,
    box,
    reconcile,
    uidsOf,
    byUid,
    addLabel,
    removeLabel,
    fileInto,
    takeOut,
    store,
  };
}
