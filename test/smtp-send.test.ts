// Sending (issue 5), with a real SMTP server and a real Dovecot on loopback: an approved `send_mail`
// queues the message for 10 seconds; Undo in that window means nothing is sent; after it the message goes
// out by SMTP with In-Reply-To/References, and its copy lands in the server's Sent folder at the next sync.
// A refused login is a failed message with a sentence and a retry, never a silent loss.

import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type Db, openDatabase } from '../electron/db/open.ts';
import { type AccountLogin, prepareAccounts } from '../electron/mail/accounts.ts';
import { syncAccount } from '../electron/mail/imap/imap-sync.ts';
import { prepareDrafts } from '../electron/mail/send/drafts.ts';
import { prepareOutbox, undoWindowMs } from '../electron/mail/send/outbox.ts';
import { prepareMailActions } from '../electron/mail/store/undo.ts';
import { fileSealer } from '../electron/secrets/file-vault.ts';
import { createKeyVault } from '../electron/secrets/key-vault.ts';
import { type Dovecot, startDovecot } from './support/dovecot.ts';
import { toolsOver } from './support/mail-tools.ts';
import { type SmtpSink, startSmtpSink } from './support/smtp-sink.ts';
import { eml, tempDir } from './support/temp.ts';
import { toolText } from './support/tool-text.ts';

let server: Dovecot;
let sink: SmtpSink;
let db: Db;
let login: AccountLogin;
let accounts: ReturnType<typeof prepareAccounts>;
const later = () => Date.now() + undoWindowMs + 1000;

beforeAll(async () => {
  server = await startDovecot();
  sink = await startSmtpSink({ user: 'test@example.com', pass: 'secret' });
  await server.append('INBOX', [
    eml({
      id: '<ask@example.com>',
      subject: 'Lunch?',
      from: 'Carol <carol@example.org>',
      references: '<old@example.org>',
      body: 'Noon?',
    }),
  ]);
  const dir = tempDir();
  db = openDatabase(join(dir, 'skimmer.db'));
  accounts = prepareAccounts(db, createKeyVault(db, fileSealer(dir)));
  const view = await accounts.add({
    name: 'work',
    user: 'test@example.com',
    password: 'secret',
    imap: { host: server.host, port: server.port, tls: 'none' },
    smtp: { host: sink.host, port: sink.port, tls: 'none' },
  });
  login = await accounts.login(view.id);
  await syncAccount(db, login);
}, 30_000);

afterAll(async () => {
  db?.close();
  await sink?.close();
  await server?.stop();
});

const sendMail = () => {
  const tool = toolsOver(db).find((t) => t.name === 'send_mail');
  if (!tool) throw new Error('no send_mail');
  return async (args: object) => ({
    output: toolText(await tool.run(tool.schema.parse(args), { signal: new AbortController().signal })),
  });
};
const question = () =>
  db.prepare("SELECT id FROM messages WHERE message_id = '<ask@example.com>'").pluck().get() as number;

describe('sending through the outbox', () => {
  test('Undo within the window: nothing is sent', async () => {
    const out = JSON.parse(
      (await sendMail()({ to: ['carol@example.org'], subject: 'Oops', body: 'Never mind.' })).output,
    );
    expect(out).toMatchObject({ queued: expect.any(Number), note: expect.stringMatching(/10 seconds/) });
    const outbox = prepareOutbox(db);
    expect(await outbox.sendDue(accounts)).toBe(0); // still inside the window
    expect(outbox.cancel(out.queued)).toBe(true);
    expect(await prepareOutbox(db, later).sendDue(accounts)).toBe(0);
    expect(outbox.get(out.queued)?.state).toBe('cancelled');
    expect(outbox.cancel(out.queued)).toBe(false);
    expect(sink.received).toEqual([]);
  });

  test('after the window it goes out as a reply, and its copy lands in Sent', async () => {
    const out = JSON.parse(
      (
        await sendMail()({
          to: ['carol@example.org'],
          cc: ['dan@example.org'],
          subject: 'Re: Lunch?',
          body: 'Noon works.',
          inReplyTo: question(),
        })
      ).output,
    );
    expect(await prepareOutbox(db, later).sendDue(accounts)).toBe(1);
    const [got] = await sink.waitFor(1);
    expect(got?.from).toBe('test@example.com');
    expect(got?.to.sort()).toEqual(['carol@example.org', 'dan@example.org']);
    const raw = got?.raw.toString() ?? '';
    expect(raw).toMatch(/^In-Reply-To: <ask@example.com>/m);
    expect(raw).toMatch(/^References: <old@example.org> <ask@example.com>/m);
    expect(raw).toMatch(/Noon works\./);
    // The Message-ID is at the sender's domain (the login's, as it has no address of its own), not skimmer.invalid.
    expect(raw).toMatch(/^Message-ID: <skimmer\.\d+\.[0-9a-f]{12}@example\.com>$/im);
    expect(prepareOutbox(db).get(out.queued)).toMatchObject({ state: 'sent', sentAt: expect.any(Number) });
    // Cancelling after it went out is refused, not pretended.
    expect(prepareOutbox(db).cancel(out.queued)).toBe(false);

    const summary = await syncAccount(db, login);
    expect(summary.pushed).toBe(1);
    const c = await server.client();
    try {
      await c.mailboxOpen('Sent', { readOnly: true });
      const [copy] = await c.fetchAll('1:*', { source: true, flags: true });
      expect(
        copy?.source?.equals(got?.raw ?? Buffer.alloc(0)) || copy?.source?.toString().includes('Noon works.'),
      ).toBe(true);
      expect([...(copy?.flags ?? [])]).toContain('\\Seen');
    } finally {
      await c.logout();
    }
    expect(
      db
        .prepare(
          "SELECT f.name FROM messages m JOIN folders f ON f.id = m.folder_id WHERE m.subject = 'Re: Lunch?'",
        )
        .pluck()
        .get(),
    ).toBe('Sent');
  }, 30_000);

  test('a refused SMTP login is a failed message with a sentence, and can be retried', async () => {
    const bad = await accounts.add({
      name: 'bad',
      user: 'test@example.com',
      password: 'wrong',
      imap: { host: server.host, port: server.port, tls: 'none' },
      smtp: { host: sink.host, port: sink.port, tls: 'none' },
    });
    const outbox = prepareOutbox(db, later);
    const item = prepareOutbox(db).queue(bad.id, {
      to: ['x@example.org'],
      cc: [],
      subject: 'Hi',
      body: 'Hi.',
      inReplyTo: null,
    });
    expect(await outbox.sendDue(accounts)).toBe(0);
    const failed = outbox.get(item.id);
    expect(failed).toMatchObject({
      state: 'failed',
      error: expect.stringMatching(/refused the user name or password/),
    });
    expect(failed?.error).not.toContain('wrong');
    expect(outbox.retry(item.id)).toBe(true);
    expect(outbox.get(item.id)?.state).toBe('queued');
    expect(sink.received).toHaveLength(1);
  });

  test('the user edits a draft the assistant made and sends it through the outbox', async () => {
    const made = prepareMailActions(db).createDraft({
      to: ['carol@example.org'],
      cc: [],
      subject: 'Re: Lunch?',
      body: 'Draft.',
      inReplyTo: question(),
    });
    const drafts = prepareDrafts(db);
    expect(drafts.list().map((d) => d.id)).toContain(made.id);
    const edited = drafts.save({
      id: made.id,
      to: ['carol@example.org'],
      cc: [],
      subject: 'Re: Lunch?',
      body: 'See you at noon.',
    });
    expect(edited.body).toBe('See you at noon.');
    const before = sink.received.length;
    const queued = drafts.send(made.id);
    expect(queued).toMatchObject({ state: 'queued', to: ['carol@example.org'] });
    expect(drafts.list().map((d) => d.id)).not.toContain(made.id);
    expect(await prepareOutbox(db, later).sendDue(accounts)).toBe(1);
    const [got] = (await sink.waitFor(before + 1)).slice(before);
    expect(got?.raw.toString()).toMatch(/See you at noon\./);
    expect(got?.raw.toString()).toMatch(/^In-Reply-To: <ask@example.com>/m);
  });

  test('a draft with no recipient is not sent', async () => {
    const made = prepareMailActions(db).createDraft({
      to: [],
      cc: [],
      subject: 'Notes',
      body: 'x',
      inReplyTo: null,
    });
    expect(() => prepareDrafts(db).send(made.id)).toThrow(/at least one recipient/);
  });
});
