// A small IMAP4rev1 server on loopback that behaves like Gmail for what Skimmer and imapflow use, written from
// Google's "IMAP Extensions" page and RFC 3501: CAPABILITY with X-GM-EXT-1, SPECIAL-USE mailboxes under
// [Gmail], X-GM-LABELS / X-GM-MSGID / X-GM-THRID in FETCH and STORE, UIDPLUS, MOVE, IDLE. No TLS (loopback),
// no CONDSTORE (no MODSEQ), no SEARCH beyond ALL, UID, HEADER, SEEN and UNSEEN.
//
// Like Gmail there is one store of messages, each with flags and labels; a mailbox is a view of the labels:
// INBOX holds what has \Inbox, a user label's mailbox what has that label, [Gmail]/All Mail everything not in
// Trash or Spam, [Gmail]/Starred what is \Flagged. COPY to a mailbox adds its label, removing a message from
// a mailbox (MOVE, or \Deleted and EXPUNGE) takes the label off (in INBOX: archives it); moving to Trash or
// Spam hides it from every other mailbox. Each mailbox numbers its messages with its own UIDs.
//
// Every command is logged (without its tag, the password hidden) so tests can assert what Skimmer sent.
import { type AddressInfo, createServer, type Socket } from 'node:net';
import iconv from 'iconv-lite';
import { ImapFlow } from 'imapflow';
import type { AccountLogin } from '../../electron/mail/accounts.ts';
import { bodyStructure, field, parsePart, section } from './imap-mime.ts';

export type GmailMessage = {
  msgId: bigint;
  thrId: bigint;
  raw: Buffer;
  date: Date;
  flags: Set<string>;
  /** \Inbox, \Sent, \Draft, \Important and user labels; \Trash and \Spam mark the two exclusive boxes. */
  labels: Set<string>;
};

export type GmailImap = {
  host: '127.0.0.1';
  port: number;
  user: string;
  pass: string;
  /** Every command received, in order, as `COMMAND args` (no tag; literals as `{n bytes}`). */
  log: string[];
  messages: GmailMessage[];
  /** Adds a message as mail delivered to the account would arrive (labels default to \Inbox). */
  deliver(raw: string | Buffer, labels?: string[], flags?: string[]): GmailMessage;
  /** The message with this Message-ID, if the store holds it. */
  find(messageId: string): GmailMessage | undefined;
  /** The mailboxes that show the message now. */
  mailboxesOf(message: GmailMessage): string[];
  /** The message's UID in a mailbox that shows it. */
  uidIn(path: string, message: GmailMessage): number | undefined;
  loginFor(accountId: number, name?: string): AccountLogin;
  client(): Promise<ImapFlow>;
  close(): Promise<void>;
};

type Box = { path: string; use?: string; flags?: string[]; holds: (m: GmailMessage) => boolean };
type View = { validity: number; next: number; uids: Map<GmailMessage, number> };
type Token = string | Buffer | Token[];

const inTrash = (m: GmailMessage) => m.labels.has('\\Trash') || m.labels.has('\\Spam');
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
const labelOf: Record<string, string> = {
  INBOX: '\\Inbox',
  '[Gmail]/Drafts': '\\Draft',
  '[Gmail]/Important': '\\Important',
  '[Gmail]/Sent Mail': '\\Sent',
  '[Gmail]/Spam': '\\Spam',
  '[Gmail]/Trash': '\\Trash',
};
const capabilities =
  'IMAP4rev1 UNSELECT IDLE NAMESPACE ID CHILDREN X-GM-EXT-1 UIDPLUS ENABLE MOVE SPECIAL-USE LITERAL+';

const utf7 = (s: string) => (/[^\x20-\x7e]|&/.test(s) ? iconv.encode(s, 'utf-7-imap').toString() : s);
const fromUtf7 = (s: string) => (/&[^-]*-/.test(s) ? iconv.decode(Buffer.from(s), 'utf-7-imap') : s);
const quote = (s: string) => `"${s.replace(/[\\"]/g, '\\$&')}"`;
const astring = (s: string) => (/^[\x21-\x7e]+$/.test(s) && !/[(){%*"\\\]]/.test(s) ? s : quote(s));
const text = (t: Token | undefined) =>
  Buffer.isBuffer(t) ? t.toString('utf8') : typeof t === 'string' ? t : '';

/** One command's tokens: atoms (with any [section] kept whole), quoted strings, literals, lists. */
function tokenize(input: Buffer): Token[] {
  let at = 0;
  const list = (): Token[] => {
    const out: Token[] = [];
    while (at < input.length) {
      const c = String.fromCharCode(input[at] as number);
      if (c === ' ') at += 1;
      else if (c === ')') {
        at += 1;
        return out;
      } else if (c === '(') {
        at += 1;
        out.push(list());
      } else if (c === '"') {
        let s = '';
        for (at += 1; input[at] !== 0x22; at += 1) {
          if (input[at] === 0x5c) at += 1;
          s += String.fromCharCode(input[at] as number);
        }
        at += 1;
        out.push(Buffer.from(s, 'latin1').toString('utf8'));
      } else if (c === '{') {
        const close = input.indexOf('}', at);
        const size = Number.parseInt(input.subarray(at + 1, close).toString(), 10);
        at = close + 3; // "}\r\n"
        out.push(input.subarray(at, at + size));
        at += size;
      } else {
        let s = '';
        for (let depth = 0; at < input.length; at += 1) {
          const ch = String.fromCharCode(input[at] as number);
          if (depth === 0 && (ch === ' ' || ch === '(' || ch === ')')) break;
          if (ch === '[') depth += 1;
          if (ch === ']') depth -= 1;
          s += ch;
        }
        out.push(s);
      }
    }
    return out;
  };
  return list();
}

/** A sequence set (`1,3:5,7:*`) as a test over numbers, `*` being `max`. */
function inSet(set: string, max: number): (n: number) => boolean {
  const ranges = set.split(',').map((r) => {
    const [a = '', b = a] = r.split(':');
    const [x, y] = [a, b].map((v) => (v === '*' ? max : Number(v))) as [number, number];
    return [Math.min(x, y), Math.max(x, y)] as const;
  });
  return (n) => ranges.some(([lo, hi]) => n >= lo && n <= hi);
}

/** `utf8`: offer UTF8=ACCEPT (RFC 6855), as Gmail does; names then travel as UTF-8, not modified UTF-7. */
export async function startGmailImap(
  opts: { user?: string; pass?: string; utf8?: boolean } = {},
): Promise<GmailImap> {
  const user = opts.user ?? 'someone@gmail.com';
  const pass = opts.pass ?? 'app-password';
  const log: string[] = [];
  const messages: GmailMessage[] = [];
  const userLabels = new Set<string>();
  const views = new Map<string, View>();
  const sessions = new Set<{ notify: () => void }>();
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
    for (const s of sessions) s.notify();
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

  const offered = `${capabilities}${opts.utf8 ? ' UTF8=ACCEPT' : ''}`;
  const server = createServer((socket) => serve(socket));

  function serve(socket: Socket) {
    let buffer = Buffer.alloc(0);
    let authenticated = false;
    let selected: { path: string; readOnly: boolean; seen: number[] } | null = null;
    let idling: string | null = null;
    let utf8 = false;
    // A mailbox or label name as this session writes and reads it.
    const nameOut = (s: string) => astring(utf8 ? s : utf7(s));
    const path = (t: Token | undefined) => (utf8 ? text(t) : fromUtf7(text(t)));
    const deleted = new Set<GmailMessage>(); // \Deleted marks in the selected mailbox
    const write = (...chunks: (string | Buffer)[]) => {
      if (!socket.destroyed) socket.write(Buffer.concat(chunks.map((c) => Buffer.from(c))));
    };
    // Untagged EXPUNGE/EXISTS for what changed in the selected mailbox since this session last looked.
    const session = {
      notify: () => {
        if (!selected || idling === null) return;
        report();
      },
    };
    const report = () => {
      if (!selected) return;
      const now = uidsOf(selected.path);
      const still = new Set(now);
      for (let i = selected.seen.length - 1; i >= 0; i -= 1)
        if (!still.has(selected.seen[i] as number)) write(`* ${i + 1} EXPUNGE\r\n`);
      const before = selected.seen.filter((u) => still.has(u));
      if (now.length !== before.length) write(`* ${now.length} EXISTS\r\n`);
      selected.seen = now;
    };
    sessions.add(session);
    socket.on('close', () => sessions.delete(session));
    socket.on('error', () => {});
    // Answers go out in several writes; Nagle's algorithm would hold each later one for the client's ACK.
    socket.setNoDelay(true);
    write('* OK Gimap ready for requests from 127.0.0.1 fixture\r\n');

    socket.on('data', (chunk) => {
      buffer = Buffer.concat([buffer, chunk]);
      for (;;) {
        const end = commandEnd(buffer);
        if (end < 0) return;
        const command = buffer.subarray(0, end - 2);
        buffer = buffer.subarray(end);
        try {
          handle(command);
        } catch (e) {
          const tag = command.toString('latin1').split(' ')[0];
          write(`${tag} BAD ${e instanceof Error ? e.message : 'error'}\r\n`);
        }
      }
    });

    // Where the command starting the buffer ends (after its CRLF), reading through literals; -1 if unfinished.
    function commandEnd(b: Buffer): number {
      let from = 0;
      for (;;) {
        const eol = b.indexOf('\r\n', from);
        if (eol < 0) return -1;
        const literal = /\{(\d+)(\+?)\}$/.exec(b.subarray(from, eol).toString('latin1'));
        if (!literal) return eol + 2;
        const size = Number(literal[1]);
        // A synchronizing literal waits for our go-ahead (once: the bytes may not all be here yet).
        if (!literal[2] && b.length === eol + 2) write('+ go ahead\r\n');
        if (b.length < eol + 2 + size) return -1;
        from = eol + 2 + size;
      }
    }

    function handle(raw: Buffer) {
      if (idling !== null) {
        if (raw.toString().toUpperCase() === 'DONE') write(`${idling} OK IDLE terminated (Success)\r\n`);
        else write(`${idling} BAD Expected DONE\r\n`);
        idling = null;
        return;
      }
      const tokens = tokenize(raw);
      const tag = text(tokens[0]);
      let name = text(tokens[1]).toUpperCase();
      let args = tokens.slice(2);
      const uid = name === 'UID';
      if (uid) {
        name = `UID ${text(args[0]).toUpperCase()}`;
        args = args.slice(1);
      }
      const shown = raw
        .toString('utf8')
        .replace(/\{(\d+)\+?\}\r\n[\s\S]*/g, (_, n) => `{${n} bytes}`)
        .slice(tag.length + 1);
      log.push(name === 'LOGIN' ? `LOGIN ${text(args[0])} ***` : shown);
      const ok = (msg = 'Success') => write(`${tag} OK ${msg}\r\n`);
      const no = (msg: string) => write(`${tag} NO ${msg}\r\n`);
      const bad = (msg: string) => write(`${tag} BAD ${msg}\r\n`);
      const command = uid ? name.slice(4) : name;
      if (!authenticated && !['CAPABILITY', 'ID', 'LOGIN', 'LOGOUT', 'NOOP'].includes(name))
        return bad('Not authenticated');
      if (
        !selected &&
        ['FETCH', 'STORE', 'SEARCH', 'COPY', 'MOVE', 'EXPUNGE', 'CLOSE', 'UNSELECT'].includes(command)
      )
        return bad('No mailbox selected');
      // Messages of the selected mailbox named by a sequence set, in order, with their sequence numbers.
      const named = (set: string) => {
        const seen = selected?.seen ?? [];
        const test = inSet(set, uid ? (seen.at(-1) ?? 0) : seen.length);
        return seen
          .map((u, i) => ({ uid: u, seq: i + 1, m: byUid(selected?.path ?? '', u) }))
          .filter(
            (x): x is { uid: number; seq: number; m: GmailMessage } => !!x.m && test(uid ? x.uid : x.seq),
          );
      };
      switch (name) {
        case 'CAPABILITY':
          write(`* CAPABILITY ${authenticated ? offered : 'IMAP4rev1 ID IDLE NAMESPACE LITERAL+'}\r\n`);
          return ok('Thats all she wrote!');
        case 'ID':
          write('* ID ("name" "GImap" "vendor" "Google, Inc.")\r\n');
          return ok();
        case 'LOGIN':
          if (text(args[0]) !== user || text(args[1]) !== pass)
            return no('[AUTHENTICATIONFAILED] Invalid credentials (Failure)');
          authenticated = true;
          return ok(`[CAPABILITY ${offered}] ${user} authenticated (Success)`);
        case 'NAMESPACE':
          write('* NAMESPACE (("" "/")) NIL NIL\r\n');
          return ok();
        case 'ENABLE':
          utf8 = opts.utf8 === true && args.some((a) => text(a).toUpperCase() === 'UTF8=ACCEPT');
          write(`* ENABLED${utf8 ? ' UTF8=ACCEPT' : ''}\r\n`);
          return ok();
        case 'NOOP':
          report();
          return ok();
        case 'LOGOUT':
          write('* BYE LOGOUT Requested\r\n');
          ok('73 GOODBYE');
          socket.end();
          return;
        case 'LIST':
        case 'LSUB':
          if (path(args[1]) === '') write(`* ${name} (\\Noselect) "/" ""\r\n`);
          for (const b of boxes().filter((b) => matches(path(args[1]), b.path))) {
            const flags = [...(b.flags ?? ['\\HasNoChildren']), ...(b.use ? [b.use] : [])];
            write(`* ${name} (${flags.join(' ')}) "/" ${nameOut(b.path)}\r\n`);
          }
          return ok();
        case 'CREATE': {
          const p = path(args[0]);
          if (box(p)) return no('[ALREADYEXISTS] Folder name conflicts with existing folder name. (Failure)');
          userLabels.add(p);
          reconcile();
          return ok();
        }
        case 'STATUS': {
          const p = path(args[0]);
          if (!box(p)) return no('[NONEXISTENT] Unknown Mailbox (Failure)');
          reconcile();
          const uids = uidsOf(p);
          const view = views.get(p) as View;
          const unseen = [...view.uids.keys()].filter((m) => !m.flags.has('\\Seen')).length;
          const values: Record<string, number> = {
            MESSAGES: uids.length,
            UIDNEXT: view.next,
            UIDVALIDITY: view.validity,
            UNSEEN: unseen,
            RECENT: 0,
          };
          const asked = (args[1] as Token[]).map((t) => text(t).toUpperCase());
          write(`* STATUS ${nameOut(p)} (${asked.map((k) => `${k} ${values[k] ?? 0}`).join(' ')})\r\n`);
          return ok();
        }
        case 'SELECT':
        case 'EXAMINE': {
          const p = path(args[0]);
          const b = box(p);
          if (!b || b.flags?.includes('\\Noselect')) return no('[NONEXISTENT] Unknown Mailbox (Failure)');
          reconcile();
          const view = views.get(b.path) as View;
          selected = { path: b.path, readOnly: name === 'EXAMINE', seen: uidsOf(b.path) };
          deleted.clear();
          write(
            '* FLAGS (\\Answered \\Flagged \\Draft \\Deleted \\Seen $NotPhishing $Phishing)\r\n',
            '* OK [PERMANENTFLAGS (\\Answered \\Flagged \\Draft \\Deleted \\Seen $NotPhishing $Phishing \\*)] Flags permitted.\r\n',
            `* OK [UIDVALIDITY ${view.validity}] UIDs valid.\r\n`,
            `* ${selected.seen.length} EXISTS\r\n`,
            '* 0 RECENT\r\n',
            `* OK [UIDNEXT ${view.next}] Predicted next UID.\r\n`,
          );
          return ok(`[READ-${selected.readOnly ? 'ONLY' : 'WRITE'}] ${p} selected. (Success)`);
        }
        case 'SUBSCRIBE':
        case 'UNSUBSCRIBE':
          return ok();
        case 'CLOSE':
        case 'UNSELECT':
          selected = null;
          return ok('Returned to authenticated state. (Success)');
        case 'IDLE':
          idling = tag;
          write('+ idling\r\n');
          report();
          return;
        case 'SEARCH':
        case 'UID SEARCH': {
          const keys = args.map((t) => (Array.isArray(t) ? '' : text(t)));
          let found = named('1:*');
          for (let i = 0; i < keys.length; i += 1) {
            const key = (keys[i] as string).toUpperCase();
            if (key === 'ALL' || key === '') continue;
            if (key === 'SEEN' || key === 'UNSEEN')
              found = found.filter((x) => x.m.flags.has('\\Seen') === (key === 'SEEN'));
            else if (key === 'UID') {
              const ids = new Set(named(keys[++i] as string).map((x) => x.uid));
              found = found.filter((x) => ids.has(x.uid));
            } else if (key === 'HEADER') {
              const [f, v] = [keys[++i] as string, (keys[++i] as string).toLowerCase()];
              found = found.filter((x) => field(parsePart(x.m.raw).header, f).toLowerCase().includes(v));
            } else return bad(`Could not parse command`);
          }
          write(`* SEARCH${found.map((x) => ` ${uid ? x.uid : x.seq}`).join('')}\r\n`);
          return ok('SEARCH completed (Success)');
        }
        case 'FETCH':
        case 'UID FETCH': {
          const items = (Array.isArray(args[1]) ? args[1] : [args[1]]).map((t) => text(t));
          if (uid && !items.some((i) => i.toUpperCase() === 'UID')) items.unshift('UID');
          for (const x of named(text(args[0]))) {
            const parts: (string | Buffer)[] = [];
            for (const item of items) {
              const upper = item.toUpperCase();
              if (upper === 'UID') parts.push(`UID ${x.uid}`);
              else if (upper === 'FLAGS') parts.push(`FLAGS (${flagsOf(x.m).join(' ')})`);
              else if (upper === 'RFC822.SIZE') parts.push(`RFC822.SIZE ${x.m.raw.length}`);
              else if (upper === 'INTERNALDATE') parts.push(`INTERNALDATE ${quote(imapDate(x.m.date))}`);
              else if (upper === 'X-GM-MSGID') parts.push(`X-GM-MSGID ${x.m.msgId}`);
              else if (upper === 'X-GM-THRID') parts.push(`X-GM-THRID ${x.m.thrId}`);
              else if (upper === 'X-GM-LABELS')
                parts.push(`X-GM-LABELS (${labelsOf(x.m, nameOut).join(' ')})`);
              else if (upper === 'BODYSTRUCTURE')
                parts.push(`BODYSTRUCTURE ${bodyStructure(parsePart(x.m.raw))}`);
              else {
                const body = /^BODY(\.PEEK)?\[(.*)\](?:<(\d+)\.(\d+)>)?$/i.exec(item);
                if (!body) return bad(`Could not parse command: ${item}`);
                const spec = (body[2] ?? '').replace(/\s+/g, ' ');
                let content = section(x.m.raw, spec) ?? Buffer.alloc(0);
                if (body[3] !== undefined)
                  content = content.subarray(Number(body[3]), Number(body[3]) + Number(body[4]));
                if (!body[1] && !selected?.readOnly) x.m.flags.add('\\Seen');
                const key = `BODY[${body[2]}]${body[3] !== undefined ? `<${body[3]}>` : ''}`;
                parts.push(Buffer.concat([Buffer.from(`${key} {${content.length}}\r\n`), content]));
              }
            }
            const joined = parts.flatMap((p, i) => (i > 0 ? [' ', p] : [p]));
            write(`* ${x.seq} FETCH (`, ...joined, ')\r\n');
          }
          return ok('Success');
        }
        case 'STORE':
        case 'UID STORE': {
          if (selected?.readOnly) return no('Mailbox is read-only');
          const what = text(args[1]).toUpperCase();
          const values = (Array.isArray(args[2]) ? args[2] : args.slice(2)).map((t) => text(t));
          const m = /^([+-]?)(FLAGS|X-GM-LABELS)(\.SILENT)?$/.exec(what);
          if (!m) return bad('Could not parse command');
          const hits = named(text(args[0]));
          for (const x of hits) {
            if (m[2] === 'FLAGS') {
              const apply = (f: string, on: boolean) => {
                if (f === '\\Deleted') {
                  if (on) deleted.add(x.m);
                  else deleted.delete(x.m);
                } else if (on) x.m.flags.add(f);
                else x.m.flags.delete(f);
              };
              if (m[1] === '') for (const f of flagsOf(x.m)) apply(f, false);
              for (const f of values) apply(f, m[1] !== '-');
            } else {
              if (m[1] === '') for (const l of [...x.m.labels]) if (!l.startsWith('\\')) x.m.labels.delete(l);
              for (const l of values.map((v) => path(v))) {
                if (m[1] === '-') removeLabel(x.m, l);
                else addLabel(x.m, l);
              }
            }
          }
          if (!m[3]) {
            for (const x of hits) {
              const value = m[2] === 'FLAGS' ? flagsOf(x.m, deleted) : labelsOf(x.m, nameOut);
              write(`* ${x.seq} FETCH (${m[2]} (${value.join(' ')})${uid ? ` UID ${x.uid}` : ''})\r\n`);
            }
          }
          reconcile();
          // An EXPUNGE may not interrupt a STORE, only a UID STORE (RFC 3501 §7.4.1).
          if (uid) report();
          return ok();
        }
        case 'COPY':
        case 'UID COPY':
        case 'MOVE':
        case 'UID MOVE': {
          const target = box(path(args[1]));
          if (!target || target.flags?.includes('\\Noselect'))
            return no('[TRYCREATE] No folder exists with that name (Failure)');
          const hits = named(text(args[0]));
          const from = selected?.path ?? '';
          for (const x of hits) {
            // Into Trash or Spam: hidden from every other mailbox. Out of them: back where its labels say.
            if (target.path === '[Gmail]/Trash' || target.path === '[Gmail]/Spam') {
              addLabel(x.m, labelOf[target.path] as string);
              continue;
            }
            if (inTrash(x.m)) {
              x.m.labels.delete('\\Trash');
              x.m.labels.delete('\\Spam');
            } else if (command === 'MOVE' && from !== '[Gmail]/All Mail') takeOut(x.m, from);
            fileInto(x.m, target.path);
          }
          reconcile();
          const to = views.get(target.path) as View;
          const newUids = hits.map((x) => to.uids.get(x.m)).filter((u) => u !== undefined);
          const code =
            newUids.length === hits.length && hits.length > 0
              ? `[COPYUID ${to.validity} ${hits.map((x) => x.uid).join(',')} ${newUids.join(',')}] `
              : '';
          if (command === 'MOVE') {
            write(`* OK ${code}(Success)\r\n`);
            report();
            return ok('Success');
          }
          return ok(`${code}(Success)`);
        }
        case 'EXPUNGE':
        case 'UID EXPUNGE': {
          const only = uid ? new Set(named(text(args[0])).map((x) => x.m)) : null;
          for (const m of [...deleted]) {
            if (only && !only.has(m)) continue;
            takeOut(m, selected?.path ?? '');
            deleted.delete(m);
          }
          reconcile();
          report();
          return ok('Success');
        }
        case 'APPEND': {
          const p = path(args[0]);
          const b = box(p);
          if (!b || b.flags?.includes('\\Noselect'))
            return no('[TRYCREATE] No folder exists with that name (Failure)');
          const content = args.at(-1);
          if (!Buffer.isBuffer(content)) return bad('Could not parse command');
          const flags = (Array.isArray(args[1]) ? args[1] : []).map((t) => text(t));
          const m = store(Buffer.from(content), [], flags);
          fileInto(m, b.path);
          reconcile();
          const view = views.get(b.path) as View;
          report();
          return ok(`[APPENDUID ${view.validity} ${view.uids.get(m)}] (Success)`);
        }
        default:
          return bad(`Unknown command ${name}`);
      }
    }
  }

  const flagsOf = (m: GmailMessage, deleted?: Set<GmailMessage>) => [
    ...m.flags,
    ...(deleted?.has(m) ? ['\\Deleted'] : []),
  ];
  // Gmail names \Inbox, \Sent, \Draft, \Important and \Starred, and user labels in modified UTF-7.
  const labelsOf = (m: GmailMessage, nameOut: (s: string) => string) => [
    ...[...m.labels]
      .filter((l) => l !== '\\Trash' && l !== '\\Spam')
      .map((l) => (l.startsWith('\\') ? l : nameOut(l))),
    ...(m.flags.has('\\Flagged') ? ['\\Starred'] : []),
  ];

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const sockets = new Set<Socket>();
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });

  return {
    host: '127.0.0.1',
    port,
    user,
    pass,
    log,
    messages,
    deliver(raw, labels = ['\\Inbox'], flags = []) {
      const m = store(Buffer.from(raw), labels, flags);
      reconcile();
      return m;
    },
    find: (messageId) => messages.find((m) => field(parsePart(m.raw).header, 'message-id') === messageId),
    mailboxesOf(m) {
      reconcile();
      return boxes()
        .filter((b) => views.get(b.path)?.uids.has(m))
        .map((b) => b.path);
    },
    uidIn(path, m) {
      reconcile();
      return views.get(path)?.uids.get(m);
    },
    loginFor: (accountId, name = 'gmail') => ({
      id: accountId,
      name,
      user,
      password: pass,
      imap: { host: '127.0.0.1', port, tls: 'none' },
      smtp: null,
      hasPassword: true,
      syncedAt: null,
      lastError: null,
    }),
    async client() {
      const c = new ImapFlow({
        host: '127.0.0.1',
        port,
        secure: false,
        doSTARTTLS: false,
        auth: { user, pass },
        logger: false,
      });
      await c.connect();
      return c;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A LIST pattern: `*` matches anything, `%` anything but the delimiter. */
function matches(pattern: string, name: string): boolean {
  const re = pattern
    .replace(/[.+?^${}()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '.*')
    .replace(/%/g, '[^/]*');
  return new RegExp(`^${re}$`, 'i').test(name);
}

function imapDate(d: Date): string {
  const months = 'Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec'.split(' ');
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(d.getUTCDate())}-${months[d.getUTCMonth()]}-${d.getUTCFullYear()} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())} +0000`;
}
