// Replays the write-back queue of one account on an open IMAP connection, in order (issue 5). Each op is
// re-checked against what is stored now: a message that left the server has nothing to change, a draft that
// was already discarded is not appended. What the server refuses (NO/BAD) becomes a `failed` op with
// Skimmer's sentence; a lost connection stops the replay, keeping the op pending for the next sync.
import type { ImapFlow } from 'imapflow';
import type { Db } from '../../db/open.ts';
import type { QueuedOp, WriteBack } from '../store/write-back.ts';
import { mailFailure } from './imap-connect.ts';

type Location = { folder_id: number; uid: number; path: string; special_use: string | null };

/** IMAP keywords are atoms: a label's other characters become '_' (RFC 3501 §9, atom-char). */
function keyword(label: string): string {
  return label.replace(/[^\x21-\x7e]|[(){%*"\\\]]/g, '_').slice(0, 100) || '_';
}

// imapflow answers a refused STORE, MOVE or APPEND with `false` rather than an error; a lost connection
// can look the same, so the connection's state tells the two apart.
function must<T>(client: ImapFlow, result: T | false): T {
  if (result !== false) return result;
  if (!client.usable) throw Object.assign(new Error('connection lost'), { code: 'NoConnection' });
  throw Object.assign(new Error('refused'), { responseStatus: 'NO' });
}

// The special use a mailbox Skimmer made stands for from then on (undo.ts makes them).
const madeUses: Record<string, string> = { 'skimmer:archive': '\\Archive', 'skimmer:spam': '\\Junk' };

export function prepareReplay(db: Db, accountId: number) {
  const locations = db.prepare<[number], Location>(
    `SELECT l.folder_id, l.uid, i.path, i.special_use
     FROM imap_locations l JOIN imap_folders i ON i.folder_id = l.folder_id
     WHERE l.message = ? ORDER BY l.folder_id`,
  );
  const imapFolder = db.prepare<[number], { path: string; special_use: string | null }>(
    'SELECT path, special_use FROM imap_folders WHERE folder_id = ?',
  );
  const folderName = db.prepare<[number], { name: string; source: string }>(
    'SELECT name, source FROM folders WHERE id = ?',
  );
  const addImapFolder = db.prepare<[number, string, string | null]>(
    'INSERT INTO imap_folders (folder_id, path, special_use) VALUES (?, ?, ?)',
  );
  // The source a sync finds the folder by (imap-store.ts), so it does not make a second folder of that name.
  const bindFolder = db.prepare<[string, number]>('UPDATE OR IGNORE folders SET source = ? WHERE id = ?');
  const dropLocation = db.prepare<[number, number]>(
    'DELETE FROM imap_locations WHERE folder_id = ? AND uid = ?',
  );
  const addLocation = db.prepare<[number, number, number, string]>(
    'INSERT OR REPLACE INTO imap_locations (folder_id, uid, message, flags_json) VALUES (?, ?, ?, ?)',
  );
  const flagsOf = db.prepare<[number, number], { flags_json: string }>(
    'SELECT flags_json FROM imap_locations WHERE folder_id = ? AND uid = ?',
  );
  const setFlags = db.prepare<[string, number, number]>(
    'UPDATE imap_locations SET flags_json = ? WHERE folder_id = ? AND uid = ?',
  );
  const draft = db.prepare<
    [number],
    {
      from_address: string | null;
      from_name: string | null;
      to_json: string;
      cc_json: string;
      bcc_json: string;
      subject: string;
      body: string;
      in_reply_to: number | null;
    }
  >(
    `SELECT d.from_address, i.name AS from_name, d.to_json, d.cc_json, d.bcc_json, d.subject, d.body, d.in_reply_to
       FROM drafts d LEFT JOIN identities i ON i.address = d.from_address WHERE d.id = ?`,
  );
  const original = db.prepare<[number], { message_id: string; refs: string }>(
    'SELECT message_id, refs FROM messages WHERE id = ?',
  );
  const specialPath = db.prepare<[number, string], { path: string }>(
    `SELECT i.path FROM imap_folders i JOIN folders f ON f.id = i.folder_id
     WHERE f.account_id = ? AND i.special_use = ? LIMIT 1`,
  );
  const renameImapFolder = db.prepare<[string, number]>(
    'UPDATE imap_folders SET path = ? WHERE folder_id = ?',
  );
  const sentRaw = db.prepare<[number], { raw: Buffer | null }>(
    "SELECT raw FROM outbox WHERE id = ? AND state = 'sent'",
  );

  const updateFlags = (at: Location, change: (flags: Set<string>) => void) => {
    const flags = new Set<string>(JSON.parse(flagsOf.get(at.folder_id, at.uid)?.flags_json ?? '[]'));
    change(flags);
    setFlags.run(JSON.stringify([...flags].sort()), at.folder_id, at.uid);
  };

  // The mailbox a Skimmer-made folder maps to: created on the server the first time something moves there.
  async function pathFor(client: ImapFlow, folderId: number): Promise<string | null> {
    const known = imapFolder.get(folderId)?.path;
    if (known) return known;
    const folder = folderName.get(folderId);
    if (!folder) return null;
    const { name, source } = folder;
    await client.mailboxCreate(name).catch((e: { serverResponseCode?: string }) => {
      if (e.serverResponseCode !== 'ALREADYEXISTS') throw e;
    });
    // Skimmer's own Archive (made where the server has no \Archive mailbox; Gmail's archive is All Mail) is
    // the account's archive from now on: the next archive finds it by its special use, not making another.
    // Its own Spam (no \Junk mailbox there) likewise.
    db.transaction(() => {
      addImapFolder.run(folderId, name, madeUses[source] ?? null);
      bindFolder.run(`imap:${name}`, folderId);
    })();
    return name;
  }

  // Gmail keeps flags per message, so one mailbox that shows it is enough (every message is in All Mail too);
  // elsewhere each copy has its own. Each location stored here says what the server has now.
  async function setFlag(client: ImapFlow, at: Location[], flag: string, on: boolean): Promise<void> {
    const gmail = client.capabilities.has('X-GM-EXT-1');
    for (const l of gmail ? at.slice(0, 1) : at) {
      await client.mailboxOpen(l.path);
      if (on) must(client, await client.messageFlagsAdd(String(l.uid), [flag], { uid: true }));
      else must(client, await client.messageFlagsRemove(String(l.uid), [flag], { uid: true }));
    }
    db.transaction(() => {
      for (const l of at) updateFlags(l, (f) => (on ? f.add(flag) : f.delete(flag)));
    })();
  }

  async function apply(client: ImapFlow, op: QueuedOp, user: string): Promise<void> {
    const at = op.message === null ? [] : locations.all(op.message);
    switch (op.kind) {
      case 'seen':
        return setFlag(client, at, '\\Seen', op.seen);
      case 'flagged':
        return setFlag(client, at, '\\Flagged', op.flagged);
      case 'keywords': {
        const gmail = client.capabilities.has('X-GM-EXT-1');
        // Gmail keeps labels as X-GM-LABELS, any string, once per message (whichever mailbox shows it);
        // elsewhere they are keywords, kept by each copy.
        const add = gmail ? op.add : op.add.map(keyword);
        const remove = gmail ? op.remove : op.remove.map(keyword);
        for (const l of gmail ? at.slice(0, 1) : at) {
          await client.mailboxOpen(l.path);
          if (add.length > 0)
            must(client, await client.messageFlagsAdd(String(l.uid), add, { uid: true, useLabels: gmail }));
          if (remove.length > 0) {
            must(
              client,
              await client.messageFlagsRemove(String(l.uid), remove, { uid: true, useLabels: gmail }),
            );
          }
          if (!gmail) {
            db.transaction(() =>
              updateFlags(l, (f) => {
                for (const k of add) f.add(k);
                for (const k of remove) f.delete(k);
              }),
            )();
          }
        }
        return;
      }
      case 'move': {
        const elsewhere = at.filter((l) => l.folder_id !== op.folderId);
        const gmail = client.capabilities.has('X-GM-EXT-1');
        // Out of the folder it was in (older ops do not say which: the first other location); on Gmail an
        // archive (into All Mail) is out of INBOX, wherever Skimmer showed the message.
        const archive = gmail && imapFolder.get(op.folderId)?.special_use === '\\All';
        const from =
          (archive ? elsewhere.find((l) => l.path === 'INBOX') : undefined) ??
          elsewhere.find((l) => l.folder_id === op.from) ??
          elsewhere[0];
        // Already there: done, except on Gmail, where a mailbox is a label and leaving one takes it off even
        // when the target shows the message already (an archive: INBOX to All Mail, which shows everything).
        const there = elsewhere.length < at.length;
        if (!from || (there && !(gmail && op.from !== undefined))) return; // already there, or gone
        const target = await pathFor(client, op.folderId);
        if (!target || op.message === null) return;
        await client.mailboxOpen(from.path);
        // Gmail's All Mail keeps every message whatever a client does there, so out of it is a copy: the
        // target's label is added (an undone archive: \Inbox). A MOVE would also expunge it from All Mail.
        const copy = gmail && from.special_use === '\\All';
        const done = must(
          client,
          copy
            ? await client.messageCopy(String(from.uid), target, { uid: true })
            : await client.messageMove(String(from.uid), target, { uid: true }),
        );
        const newUid = done.uidMap ? done.uidMap.get(from.uid) : undefined;
        const message = op.message;
        db.transaction(() => {
          const flags = flagsOf.get(from.folder_id, from.uid)?.flags_json ?? '[]';
          if (!copy) dropLocation.run(from.folder_id, from.uid);
          // Without UIDPLUS the new uid is unknown: the next sync finds the message there by its Message-ID.
          if (newUid !== undefined) addLocation.run(op.folderId, newUid, message, flags);
        })();
        return;
      }
      case 'append_draft': {
        const d = draft.get(op.draftId);
        const path = specialPath.get(accountId, '\\Drafts')?.path;
        if (!d || !path) return; // discarded before it reached the server, or no Drafts folder
        const replyTo = d.in_reply_to === null ? undefined : original.get(d.in_reply_to);
        // Loaded on first use: nodemailer's composer cost the sync worker's start about 100 ms, before the
        // newest mail of a new account could be fetched, and most syncs append no draft.
        const { compose } = await import('../send/compose.ts');
        // As Thunderbird keeps a draft: its chosen From and its Bcc; its files stay here (DESIGN §11).
        const raw = await compose({
          from: d.from_address === null ? user : { name: d.from_name, address: d.from_address },
          to: JSON.parse(d.to_json),
          cc: JSON.parse(d.cc_json),
          bcc: JSON.parse(d.bcc_json),
          keepBcc: true,
          subject: d.subject,
          body: d.body,
          messageId: op.messageId,
          date: new Date(),
          inReplyTo: replyTo?.message_id ?? null,
          references: replyTo ? (JSON.parse(replyTo.refs) as string[]) : [],
        });
        must(client, await client.append(path, raw, ['\\Draft', '\\Seen']));
        return;
      }
      case 'append_sent': {
        // Gmail files what its SMTP server sends by itself; a second copy would show twice.
        if (client.capabilities.has('X-GM-EXT-1')) return;
        const raw = sentRaw.get(op.outboxId)?.raw;
        const path = specialPath.get(accountId, '\\Sent')?.path;
        if (!raw || !path) return;
        must(client, await client.append(path, raw, ['\\Seen']));
        return;
      }
      case 'expunge': {
        // Delete forever: STORE \Deleted and UID EXPUNGE (imapflow uses UID EXPUNGE with UIDPLUS, so other
        // messages someone marked \Deleted stay). On Gmail an expunge from [Gmail]/Trash deletes for good.
        const byPath = new Map<string, number[]>();
        for (const c of op.copies) byPath.set(c.path, [...(byPath.get(c.path) ?? []), c.uid]);
        for (const [path, uids] of byPath) {
          await client.mailboxOpen(path);
          must(client, await client.messageDelete(uids.join(','), { uid: true }));
        }
        return;
      }
      case 'folder_create':
        await pathFor(client, op.folderId);
        return;
      case 'folder_rename': {
        const old = imapFolder.get(op.folderId)?.path;
        if (!old) return; // not on the server yet: its create makes it under the new name
        // The same parent, the new last name, in the server's delimiter (LIST says which).
        const entry = (await client.list()).find((m) => m.path === old);
        if (!entry) return; // gone from the server; the next sync drops it here
        const parent = entry.parentPath ? `${entry.parentPath}${entry.delimiter}` : '';
        const path = `${parent}${op.name}`;
        if (path === old) return;
        must(client, await client.mailboxRename(old, path));
        db.transaction(() => {
          renameImapFolder.run(path, op.folderId);
          bindFolder.run(`imap:${path}`, op.folderId);
        })();
        return;
      }
      case 'folder_delete': {
        // SECURITY: a server's DELETE takes the mailbox's mail with it. Skimmer deletes only a folder it holds as
        // empty; mail another client put there since stops it (the op fails with its sentence, the mail stays).
        // Not the selected mailbox: imapflow answers STATUS on it from what it last saw, before a MOVE's expunges.
        if (client.mailbox && client.mailbox.path === op.path) await client.mailboxClose();
        const status = await client.status(op.path, { messages: true }).catch(() => null);
        if (!status) return; // already gone
        if ((status.messages ?? 0) > 0) throw Object.assign(new Error('not empty'), { responseStatus: 'NO' });
        must(client, await client.mailboxDelete(op.path));
        return;
      }
      case 'drop_draft': {
        const path = specialPath.get(accountId, '\\Drafts')?.path;
        if (!path) return;
        await client.mailboxOpen(path);
        const uids = (await client.search({ header: { 'message-id': op.messageId } }, { uid: true })) || [];
        if (uids.length === 0) return;
        // On Gmail an expunge only takes a label off (by default the message stays in All Mail): a draft
        // goes by moving it to Trash.
        const trash = client.capabilities.has('X-GM-EXT-1')
          ? specialPath.get(accountId, '\\Trash')?.path
          : null;
        if (trash) must(client, await client.messageMove(uids.join(','), trash, { uid: true }));
        else must(client, await client.messageDelete(uids.join(','), { uid: true }));
        return;
      }
    }
  }

  /** Replays every pending op in order; stops (throwing) when the connection is lost. */
  return async function replay(client: ImapFlow, writeBack: WriteBack, user: string): Promise<number> {
    let done = 0;
    for (const op of writeBack.pending(accountId)) {
      try {
        await apply(client, op, user);
        writeBack.done(op.id);
        done += 1;
      } catch (e) {
        const refused = (e as { responseStatus?: string }).responseStatus;
        if (refused === 'NO' || refused === 'BAD') {
          writeBack.refused(
            op.id,
            'The mail server refused this change; it is kept here. Retry to send it again.',
          );
          continue;
        }
        const failure = mailFailure(e, 'the mail server');
        writeBack.unreached(op.id, failure.message);
        throw failure;
      }
    }
    return done;
  };
}
