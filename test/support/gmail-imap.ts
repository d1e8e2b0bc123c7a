// A small IMAP4rev1 server on loopback that behaves like Gmail for what Skimmer and imapflow use, written from
// Google's "IMAP Extensions" page and RFC 3501: CAPABILITY with X-GM-EXT-1, SPECIAL-USE mailboxes under
// [Gmail], X-GM-LABELS / X-GM-MSGID / X-GM-THRID in FETCH and STORE, UIDPLUS, MOVE, IDLE, and on request
// UTF8=ACCEPT. No TLS (loopback), no CONDSTORE (no MODSEQ), no SEARCH beyond ALL, UID, HEADER, SEEN, UNSEEN.
//
// Gmail's model (labels, mailboxes as views of them, UIDs per mailbox) is gmail-store.ts; the wire, imap-wire.ts.
//
// Every command is logged (without its tag, the password hidden) so tests can assert what Skimmer sent.
import { type AddressInfo, createServer, type Socket } from 'node:net';
import { ImapFlow } from 'imapflow';
import type { AccountLogin } from '../../electron/mail/accounts.ts';
import { createGmailStore, type GmailMessage, inTrash, labelOf, type View } from './gmail-store.ts';
import { bodyStructure, field, parsePart, section } from './imap-mime.ts';
import {
  astring,
  fromUtf7,
  imapDate,
  inSet,
  matches,
  quote,
  type Token,
  text,
  tokenize,
  utf7,
} from './imap-wire.ts';

export type { GmailMessage } from './gmail-store.ts';

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
  /** Labels changed on Gmail's side (its web page, another client); taking \Inbox off is Gmail's Archive. */
  relabel(message: GmailMessage, add: string[], remove: string[]): void;
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

const capabilities =
  'IMAP4rev1 UNSELECT IDLE NAMESPACE ID CHILDREN X-GM-EXT-1 UIDPLUS ENABLE MOVE SPECIAL-USE LITERAL+';

/**
 * `utf8`: offer UTF8=ACCEPT (RFC 6855), as Gmail does; names then travel as UTF-8, not modified UTF-7.
 * `gmExt: false`: do not offer X-GM-EXT-1, as a server would whose \All mailbox is a virtual one (Dovecot's).
 */
export async function startGmailImap(
  opts: { user?: string; pass?: string; utf8?: boolean; gmExt?: boolean } = {},
): Promise<GmailImap> {
  const user = opts.user ?? 'someone@gmail.com';
  const pass = opts.pass ?? 'app-password';
  const log: string[] = [];
  const sessions = new Set<{ notify: () => void }>();
  const {
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
  } = createGmailStore(() => {
    for (const s of sessions) s.notify();
  });
  const offered = `${opts.gmExt === false ? capabilities.replace(' X-GM-EXT-1', '') : capabilities}${opts.utf8 ? ' UTF8=ACCEPT' : ''}`;
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
          // CLOSE expunges what is marked \Deleted; UNSELECT does not (RFC 3501 §6.4.2, RFC 3691).
          if (name === 'CLOSE' && !selected?.readOnly)
            for (const m of deleted) takeOut(m, selected?.path ?? '');
          if (name === 'CLOSE') reconcile();
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
              else if (upper === 'FLAGS') parts.push(`FLAGS (${flagsOf(x.m, deleted).join(' ')})`);
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
  // Gmail names \Inbox, \Sent, \Draft, \Important and \Starred, and user labels as mailbox names.
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
    relabel(m, add, remove) {
      for (const l of add) addLabel(m, l);
      for (const l of remove) removeLabel(m, l);
      reconcile();
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
      auth: 'password',
      needsSignIn: false,
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
