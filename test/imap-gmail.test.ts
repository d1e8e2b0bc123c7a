// Sync and write-back against a Gmail-like IMAP server (issue 5: "labels written back as IMAP keywords, and
// Gmail's labels where X-GM-EXT-1 is present"; the sent copy APPENDed "when the server does not do it").
// Dovecot speaks no X-GM-EXT-1, so the server here is test/support/gmail-imap.ts, written from Google's
// documentation: labels are mailboxes, All Mail holds everything, Trash hides a message from the rest. The
// assertions are on what the server holds afterwards and on the commands it received. On Gmail, All Mail is
// the archive: it is synced (last), and Skimmer's Archive is a move there, out of INBOX.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type Db, openDatabase } from '../electron/db/open.ts';
import { type AccountLogin, prepareAccounts } from '../electron/mail/accounts.ts';
import { syncAccount } from '../electron/mail/imap/imap-sync.ts';
import { prepareOutbox, undoWindowMs } from '../electron/mail/send/outbox.ts';
import { prepareMailActions } from '../electron/mail/store/undo.ts';
import { fileSealer } from '../electron/secrets/file-vault.ts';
import { createKeyVault } from '../electron/secrets/key-vault.ts';
import { type GmailImap, type GmailMessage, startGmailImap } from './support/gmail-imap.ts';
import { type SmtpSink, startSmtpSink } from './support/smtp-sink.ts';
import { eml, tempDir } from './support/temp.ts';

let gmail: GmailImap;
let sink: SmtpSink;
let db: Db;
let login: AccountLogin;
let accounts: ReturnType<typeof prepareAccounts>;
// Each delivered to INBOX, and with these labels too.
const delivered: Record<string, string[]> = {
  label: [],
  archive: [],
  trash: [],
  move: [],
  reply: [],
  filed: ['Receipts'],
  starred: ['\\Important'],
  elsewhere: [],
  shelved: ['Receipts'],
};
const names = Object.keys(delivered);

const idOf = (s: string) =>
  db.prepare('SELECT id FROM messages WHERE message_id = ?').pluck().get(`<${s}@example.com>`) as number;
const folderOf = (s: string) =>
  db
    .prepare('SELECT f.name FROM messages m JOIN folders f ON f.id = m.folder_id WHERE m.message_id = ?')
    .pluck()
    .get(`<${s}@example.com>`);
/** The local folders where the message has a server location. */
const locationsOf = (s: string) =>
  db
    .prepare(
      `SELECT f.name FROM imap_locations l JOIN folders f ON f.id = l.folder_id JOIN messages m ON m.id = l.message
       WHERE m.message_id = ? ORDER BY f.name`,
    )
    .pluck()
    .all(`<${s}@example.com>`);
const folderCount = (name: string) =>
  db.prepare('SELECT count(*) FROM folders WHERE account_id = ? AND name = ?').pluck().get(login.id, name);
/** Where the server shows the message now, and its labels (\Trash marks a message in Trash). */
const onGmail = (messageId: string) => {
  const m = gmail.find(messageId);
  return m ? { mailboxes: gmail.mailboxesOf(m), labels: [...m.labels].sort() } : null;
};
const server = (s: string) => onGmail(`<${s}@example.com>`);
/** How many message bodies the commands fetched (text parts, not the header fields every listing asks for). */
const bodiesFetched = (commands: string[]) =>
  commands
    .map((c) => /^UID FETCH ([\d,]+) \(.*BODY(\.PEEK)?\[(?!HEADER)/.exec(c)?.[1])
    .filter((set) => set !== undefined)
    .reduce((n, set) => n + set.split(',').length, 0);
const gmailMessage = (s: string) => gmail.find(`<${s}@example.com>`) as GmailMessage;
/** The commands the server receives from now on. */
const commandsFrom = () => {
  const start = gmail.log.length;
  return () => gmail.log.slice(start);
};

beforeAll(async () => {
  gmail = await startGmailImap();
  sink = await startSmtpSink({ user: gmail.user, pass: gmail.pass });
  for (const s of names) {
    gmail.deliver(
      eml({ id: `<${s}@example.com>`, subject: `To ${s}`, body: `Please ${s} this.` }),
      ['\\Inbox', ...(delivered[s] ?? [])],
      s === 'starred' ? ['\\Flagged'] : [],
    );
  }
  gmail.deliver(eml({ id: '<mine@example.com>', subject: 'Mine', body: 'I sent this.' }), ['\\Sent']);
  // Archived in Gmail before Skimmer came: in no mailbox but All Mail.
  gmail.deliver(eml({ id: '<old@example.com>', subject: 'Old', body: 'Archived long ago.' }), []);
  const dir = tempDir();
  db = openDatabase(join(dir, 'skimmer.db'));
  accounts = prepareAccounts(db, createKeyVault(db, fileSealer(dir)));
  const view = await accounts.add({
    name: 'gmail',
    user: gmail.user,
    password: gmail.pass,
    imap: { host: gmail.host, port: gmail.port, tls: 'none' },
    smtp: { host: sink.host, port: sink.port, tls: 'none' },
  });
  login = await accounts.login(view.id);
});

afterAll(async () => {
  db?.close();
  await sink?.close();
  await gmail?.close();
});

describe('a Gmail account', () => {
  test('a sync reads INBOX first and All Mail last, not Starred or Important, and names folders without [Gmail]/', async () => {
    const commands = commandsFrom();
    const summary = await syncAccount(db, login);
    const opened = commands().filter((c) => /^(SELECT|EXAMINE) /.test(c));
    expect(opened[0]).toBe('EXAMINE INBOX');
    expect(opened.at(-1)).toBe('EXAMINE "[Gmail]/All Mail"');
    expect(opened.join('\n')).not.toMatch(/Starred|Important/);
    expect(
      db.prepare('SELECT name FROM folders WHERE account_id = ? ORDER BY name').pluck().all(login.id),
    ).toEqual(['All Mail', 'Drafts', 'Inbox', 'Receipts', 'Sent Mail', 'Spam', 'Trash']);
    // The path stays the server's.
    expect(
      db
        .prepare(
          "SELECT i.path FROM imap_folders i JOIN folders f ON f.id = i.folder_id WHERE f.name = 'Sent Mail'",
        )
        .pluck()
        .get(),
    ).toBe('[Gmail]/Sent Mail');
    // One message per Gmail message, each downloaded once: what INBOX and the labels brought is found in All
    // Mail by Message-ID and size; only what is in All Mail alone is fetched there.
    const stored = names.length + 2;
    expect(summary.added).toBe(stored);
    // Each message counted once, though All Mail and the labels repeat it.
    expect(summary.messages).toBe(stored);
    expect(db.prepare('SELECT count(*) FROM messages').pluck().get()).toBe(stored);
    expect(bodiesFetched(commands())).toBe(stored);
    expect(folderOf('filed')).toBe('Inbox');
    expect(locationsOf('filed')).toEqual(['All Mail', 'Inbox', 'Receipts']);
    expect(locationsOf('starred')).toEqual(['All Mail', 'Inbox']);
    expect(folderOf('mine')).toBe('Sent Mail');
    expect(folderOf('old')).toBe('All Mail');
    expect(locationsOf('old')).toEqual(['All Mail']);
  });

  test('mail archived in Gmail is kept: it shows in All Mail, or in its label, as the same message', async () => {
    const before = { elsewhere: idOf('elsewhere'), shelved: idOf('shelved') };
    for (const s of ['elsewhere', 'shelved']) gmail.relabel(gmailMessage(s), [], ['\\Inbox']);
    const commands = commandsFrom();
    expect(await syncAccount(db, login)).toMatchObject({ added: 0, removed: 0 });
    expect(bodiesFetched(commands())).toBe(0);
    expect({ elsewhere: idOf('elsewhere'), shelved: idOf('shelved') }).toEqual(before);
    expect(folderOf('elsewhere')).toBe('All Mail');
    expect(locationsOf('elsewhere')).toEqual(['All Mail']);
    // Out of INBOX, a message with a label shows in the label rather than among all the archived mail.
    expect(folderOf('shelved')).toBe('Receipts');
    expect(locationsOf('shelved')).toEqual(['All Mail', 'Receipts']);
  });

  test('a label added here reaches Gmail as X-GM-LABELS, not as a keyword, and one removed goes', async () => {
    const actions = prepareMailActions(db);
    actions.label([idOf('label')], ['Paid', 'Über wichtig'], []);
    let commands = commandsFrom();
    expect((await syncAccount(db, login)).pushed).toBe(1);
    expect(commands()).toContainEqual(
      expect.stringMatching(/^UID STORE \d+ \+X-GM-LABELS \(Paid "&ANw-ber wichtig"\)$/),
    );
    expect(commands().join('\n')).not.toMatch(/FLAGS[^\n]*(Paid|ber)/);
    expect(server('label')?.labels).toEqual(['Paid', '\\Inbox', 'Über wichtig']);
    // Gmail shows a label as a mailbox: the sync finds the message there too, without a second copy.
    expect(locationsOf('label')).toEqual(['All Mail', 'Inbox', 'Paid', 'Über wichtig']);
    expect(folderOf('label')).toBe('Inbox');

    actions.label([idOf('label')], [], ['Paid']);
    commands = commandsFrom();
    expect((await syncAccount(db, login)).pushed).toBe(1);
    // A label belongs to the Gmail message, so once is enough, whichever of its mailboxes says it.
    expect(commands().filter((c) => c.startsWith('UID STORE'))).toEqual([
      expect.stringMatching(/^UID STORE \d+ -X-GM-LABELS \(Paid\)$/),
    ]);
    expect(server('label')?.labels).toEqual(['\\Inbox', 'Über wichtig']);
    expect(locationsOf('label')).toEqual(['All Mail', 'Inbox', 'Über wichtig']);
  });

  test('marking read sets \\Seen once on the Gmail message, and every mailbox that shows it agrees', async () => {
    prepareMailActions(db).markRead([idOf('label')], true);
    const commands = commandsFrom();
    // The sync reads the flags back after the replay: what was written here for each of its three
    // locations is what Gmail says of each, so nothing changes.
    expect(await syncAccount(db, login)).toMatchObject({ pushed: 1, flagsChanged: 0 });
    expect(commands().filter((c) => c.startsWith('UID STORE'))).toEqual([
      expect.stringMatching(/^UID STORE \d+ \+FLAGS \(\\Seen\)$/),
    ]);
    expect([...(gmail.find('<label@example.com>')?.flags ?? [])]).toEqual(['\\Seen']);
    expect(db.prepare('SELECT unread FROM messages WHERE id = ?').pluck().get(idOf('label'))).toBe(0);
  });

  test('archive takes the message out of INBOX into All Mail, with no Archive label; undo puts it back', async () => {
    const actions = prepareMailActions(db);
    const archived = idOf('archive');
    actions.moveToSpecial([archived, idOf('filed')], 'archive');
    // Shown at once where Gmail will show it.
    expect(folderOf('archive')).toBe('All Mail');
    let commands = commandsFrom();
    expect((await syncAccount(db, login)).pushed).toBe(2);
    expect(commands().filter((c) => /^(CREATE|UID MOVE|UID COPY)/.test(c))).toEqual([
      expect.stringMatching(/^UID MOVE \d+ "\[Gmail\]\/All Mail"$/),
      expect.stringMatching(/^UID MOVE \d+ "\[Gmail\]\/All Mail"$/),
    ]);
    expect(server('archive')).toEqual({ mailboxes: ['[Gmail]/All Mail'], labels: [] });
    // Archiving takes only \Inbox off: the other labels stay.
    expect(server('filed')).toEqual({ mailboxes: ['[Gmail]/All Mail', 'Receipts'], labels: ['Receipts'] });
    expect(idOf('archive')).toBe(archived);
    expect(folderOf('archive')).toBe('All Mail');
    expect(locationsOf('archive')).toEqual(['All Mail']);
    expect(folderOf('filed')).toBe('All Mail');
    expect(folderCount('Archive')).toBe(0);
    expect(bodiesFetched(commands())).toBe(0);

    expect(actions.undo(1)).toHaveLength(1);
    commands = commandsFrom();
    expect((await syncAccount(db, login)).pushed).toBe(2);
    // Out of All Mail is a copy: it adds \Inbox, and All Mail keeps the message whatever happens there.
    expect(commands().filter((c) => /^(UID MOVE|UID COPY)/.test(c))).toEqual([
      expect.stringMatching(/^UID COPY \d+ INBOX$/),
      expect.stringMatching(/^UID COPY \d+ INBOX$/),
    ]);
    expect(server('archive')).toEqual({ mailboxes: ['INBOX', '[Gmail]/All Mail'], labels: ['\\Inbox'] });
    expect(server('filed')?.labels).toEqual(['Receipts', '\\Inbox']);
    expect(idOf('archive')).toBe(archived);
    expect(folderOf('archive')).toBe('Inbox');
    expect(locationsOf('archive')).toEqual(['All Mail', 'Inbox']);
    expect(folderOf('filed')).toBe('Inbox');
    expect(bodiesFetched(commands())).toBe(0);
  });

  test('archive of a message shown in its label, but in INBOX too, takes it out of INBOX and keeps the label', async () => {
    // Back in the inbox on Gmail's side; Skimmer goes on showing it in Receipts, where it was.
    gmail.relabel(gmailMessage('shelved'), ['\\Inbox'], []);
    await syncAccount(db, login);
    expect(folderOf('shelved')).toBe('Receipts');
    expect(locationsOf('shelved')).toEqual(['All Mail', 'Inbox', 'Receipts']);

    prepareMailActions(db).moveToSpecial([idOf('shelved')], 'archive');
    const commands = commandsFrom();
    expect((await syncAccount(db, login)).pushed).toBe(1);
    // The move is made in INBOX, the mailbox selected last before it.
    const replayed = commands().filter((c) => /^(SELECT|UID MOVE)/.test(c));
    expect(replayed).toEqual(['SELECT INBOX', expect.stringMatching(/^UID MOVE \d+ "\[Gmail\]\/All Mail"$/)]);
    expect(server('shelved')).toEqual({ mailboxes: ['[Gmail]/All Mail', 'Receipts'], labels: ['Receipts'] });
    expect(folderOf('shelved')).toBe('All Mail');
    expect(locationsOf('shelved')).toEqual(['All Mail', 'Receipts']);
  });

  test('trash hides the message from every mailbox but Trash; a move relabels it; undo brings both back', async () => {
    const actions = prepareMailActions(db);
    actions.moveToSpecial([idOf('trash')], 'trash');
    actions.moveToFolder([idOf('move')], 'Receipts');
    expect((await syncAccount(db, login)).pushed).toBe(2);
    expect(server('trash')?.mailboxes).toEqual(['[Gmail]/Trash']);
    expect(folderOf('trash')).toBe('Trash');
    expect(server('move')).toEqual({ mailboxes: ['[Gmail]/All Mail', 'Receipts'], labels: ['Receipts'] });
    expect(folderOf('move')).toBe('Receipts');

    expect(actions.undo(2)).toHaveLength(2);
    expect((await syncAccount(db, login)).pushed).toBe(2);
    expect(server('trash')?.mailboxes).toEqual(['INBOX', '[Gmail]/All Mail']);
    expect(server('move')).toEqual({ mailboxes: ['INBOX', '[Gmail]/All Mail'], labels: ['\\Inbox'] });
    expect(folderOf('trash')).toBe('Inbox');
    expect(folderOf('move')).toBe('Inbox');
  });

  test('a draft goes to [Gmail]/Drafts, and when undone to Trash rather than into All Mail', async () => {
    const actions = prepareMailActions(db);
    actions.createDraft({
      to: ['alice@example.com'],
      cc: [],
      subject: 'Re: To reply',
      body: 'Done.',
      inReplyTo: idOf('reply'),
    });
    let commands = commandsFrom();
    const summary = await syncAccount(db, login);
    expect(summary).toMatchObject({ pushed: 1, added: 1 });
    expect(commands()).toContainEqual(
      expect.stringMatching(/^APPEND "\[Gmail\]\/Drafts" \(\\Draft \\Seen\)/),
    );
    const draftId = db
      .prepare("SELECT message_id FROM messages WHERE subject = 'Re: To reply'")
      .pluck()
      .get() as string;
    expect(onGmail(draftId)?.mailboxes).toEqual(['[Gmail]/All Mail', '[Gmail]/Drafts']);
    expect(
      db
        .prepare('SELECT f.name FROM messages m JOIN folders f ON f.id = m.folder_id WHERE m.message_id = ?')
        .pluck()
        .get(draftId),
    ).toBe('Drafts');

    expect(actions.undo(1)).toHaveLength(1);
    commands = commandsFrom();
    expect((await syncAccount(db, login)).pushed).toBe(1);
    // An expunge from Drafts would only take the \Draft label off: Gmail keeps the message in All Mail.
    expect(commands()).toContainEqual(expect.stringMatching(/^UID MOVE \d+ "\[Gmail\]\/Trash"$/));
    expect(commands().join('\n')).not.toMatch(/EXPUNGE/);
    expect(onGmail(draftId)?.mailboxes).toEqual(['[Gmail]/Trash']);
  });

  test('a send through the outbox appends no copy to Sent: Gmail files it', async () => {
    const later = () => Date.now() + undoWindowMs + 1000;
    prepareOutbox(db).queue(login.id, {
      to: ['carol@example.org'],
      cc: [],
      subject: 'Hello from Skimmer',
      body: 'Sent once.',
      inReplyTo: null,
    });
    expect(await prepareOutbox(db, later).sendDue(accounts)).toBe(1);
    const [sent] = await sink.waitFor(1);
    // What Gmail's SMTP server does with what it relays: the message is filed under \Sent.
    const filed = gmail.deliver(sent?.raw ?? '', ['\\Sent'], ['\\Seen']);
    const commands = commandsFrom();
    const summary = await syncAccount(db, login);
    expect(commands().join('\n')).not.toMatch(/^APPEND/m);
    expect(summary).toMatchObject({ pushed: 1, added: 1 });
    expect(gmail.messages.filter((m) => m.raw.equals(filed.raw))).toHaveLength(1);
    expect(
      db
        .prepare(
          "SELECT f.name FROM messages m JOIN folders f ON f.id = m.folder_id WHERE m.subject = 'Hello from Skimmer'",
        )
        .pluck()
        .all(),
    ).toEqual(['Sent Mail']);
  });
});

describe('a Gmail account that accepts UTF-8 (RFC 6855), as Gmail does', () => {
  test('a label with an accent goes as quoted UTF-8 and comes back as its folder', async () => {
    const utf8 = await startGmailImap({ utf8: true });
    const own = openDatabase(join(tempDir(), 'skimmer.db'));
    try {
      utf8.deliver(eml({ id: '<accent@example.com>', subject: 'Accent', body: 'Label me.' }));
      const accountId = Number(
        own.prepare("INSERT INTO accounts (kind, name) VALUES ('imap', 'gmail')").run().lastInsertRowid,
      );
      const account = utf8.loginFor(accountId);
      await syncAccount(own, account);
      const id = own.prepare('SELECT id FROM messages').pluck().get() as number;
      prepareMailActions(own).label([id], ['Über wichtig'], []);
      const start = utf8.log.length;
      expect((await syncAccount(own, account)).pushed).toBe(1);
      expect(utf8.log.slice(start)).toContain('ENABLE UTF8=ACCEPT');
      expect(utf8.log.slice(start)).toContainEqual(
        expect.stringMatching(/^UID STORE \d+ \+X-GM-LABELS \("Über wichtig"\)$/),
      );
      const m = utf8.find('<accent@example.com>');
      expect(m && [...m.labels].sort()).toEqual(['\\Inbox', 'Über wichtig']);
      expect(
        own
          .prepare('SELECT f.name FROM imap_locations l JOIN folders f ON f.id = l.folder_id ORDER BY f.name')
          .pluck()
          .all(),
      ).toEqual(['All Mail', 'Inbox', 'Über wichtig']);
    } finally {
      own.close();
      await utf8.close();
    }
  });
});

describe('a server without X-GM-EXT-1 that lists an \\All mailbox', () => {
  test('does not have it synced: its All holds every message again, and names keep their paths', async () => {
    const plain = await startGmailImap({ gmExt: false });
    const own = openDatabase(join(tempDir(), 'skimmer.db'));
    try {
      plain.deliver(eml({ id: '<new@example.com>', subject: 'New', body: 'In INBOX.' }));
      plain.deliver(eml({ id: '<kept@example.com>', subject: 'Kept', body: 'In All only.' }), []);
      const accountId = Number(
        own.prepare("INSERT INTO accounts (kind, name) VALUES ('imap', 'plain')").run().lastInsertRowid,
      );
      const probe = await plain.client();
      expect(probe.capabilities.has('X-GM-EXT-1')).toBe(false);
      await probe.logout();
      const start = plain.log.length;
      expect(await syncAccount(own, plain.loginFor(accountId))).toMatchObject({ added: 1 });
      expect(plain.log.slice(start).join('\n')).not.toMatch(/EXAMINE "\[Gmail\]\/(All Mail|Starred)"/);
      expect(own.prepare('SELECT message_id FROM messages').pluck().all()).toEqual(['<new@example.com>']);
      // Only Gmail's folders lose the [Gmail]/ prefix, and only there is Important left out.
      expect(own.prepare('SELECT name FROM folders ORDER BY name').pluck().all()).toEqual([
        'Inbox',
        '[Gmail]/Drafts',
        '[Gmail]/Important',
        '[Gmail]/Sent Mail',
        '[Gmail]/Spam',
        '[Gmail]/Trash',
      ]);
    } finally {
      own.close();
      await plain.close();
    }
  });
});
