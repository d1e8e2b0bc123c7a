// The composer's sending side (issue 16, "Write mail"), with a real Dovecot and a real SMTP server on loopback
// and the app's bridge: a forward carries the original's attachments, read when it is sent from where the
// original is kept (the imported .eml or mbox, the IMAP server), received with their bytes intact; Bcc is in
// the envelope and never in what is received, while the Sent copy keeps it; a From must be one of your
// addresses and an alias goes out through the default account; a reply goes to the Reply-To; an original
// that cannot be read, or whose imported file holds another message since, fails the send with a sentence
// and loses nothing; a saved draft is kept in Drafts.
import { createHash, randomBytes } from 'node:crypto';
import { renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { simpleParser } from 'mailparser';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type App, createApp } from '../electron/app.ts';
import { userPlaces } from '../electron/files/safe-open.ts';
import { syncAccount } from '../electron/mail/imap/imap-sync.ts';
import { prepareOutbox, undoWindowMs } from '../electron/mail/send/outbox.ts';
import { call, callRaw } from './support/bridge.ts';
import { type Dovecot, startDovecot } from './support/dovecot.ts';
import { addMailAccount } from './support/mail-account.ts';
import { type SmtpSink, startSmtpSink } from './support/smtp-sink.ts';
import { tempDir } from './support/temp.ts';

let server: Dovecot;
let sink: SmtpSink;
let app: App;
let accountId = 0;
const files = tempDir();
const later = () => Date.now() + undoWindowMs + 1000;
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

// A message with one attached file, as a mail program writes it (base64 in 76-character lines).
function withFile(o: {
  id: string;
  subject: string;
  name: string;
  type: string;
  bytes: Buffer;
  extra?: string[];
}) {
  return [
    'From: Lee <lee@example.org>',
    'To: Test <test@example.com>',
    ...(o.extra ?? []),
    `Subject: ${o.subject}`,
    'Date: Sun, 29 Nov 2026 11:00:00 +0000',
    `Message-ID: ${o.id}`,
    'MIME-Version: 1.0',
    'Content-Type: multipart/mixed; boundary="b1"',
    '',
    '--b1',
    'Content-Type: text/plain; charset=utf-8',
    '',
    `About ${o.subject}.`,
    '--b1',
    `Content-Type: ${o.type}; name="${o.name}"`,
    `Content-Disposition: attachment; filename="${o.name}"`,
    'Content-Transfer-Encoding: base64',
    '',
    o.bytes.toString('base64').replace(/.{76}/g, '$&\r\n'),
    '--b1--',
    '',
  ].join('\r\n');
}

const invoice = randomBytes(40_000);
const photo = randomBytes(12_345);
const report = randomBytes(70_000);
const later2 = randomBytes(5_000);

const idOf = (messageId: string) =>
  app.db.prepare('SELECT id FROM messages WHERE message_id = ?').pluck().get(messageId) as number;
const sendDue = () => prepareOutbox(app.db, later, userPlaces()).sendDue(app.accounts);
const sync = async () => syncAccount(app.db, await app.accounts.login(accountId));
/** The one message the sink got from here on, parsed, with its envelope. */
async function nextReceived(send: () => Promise<unknown>) {
  const before = sink.received.length;
  await send();
  const [got] = (await sink.waitFor(before + 1)).slice(before);
  if (!got) throw new Error('nothing received');
  return { ...got, parsed: await simpleParser(got.raw) };
}
async function forwardAndSend(message: number) {
  const draft = await call(app, 'draft:new', {
    kind: 'forward',
    message,
    to: ['kim@example.org'],
    body: 'FYI',
  });
  await call(app, 'draft:send', { id: draft.id });
  return draft;
}
async function mailboxSources(path: string): Promise<Buffer[]> {
  const c = await server.client();
  try {
    await c.mailboxOpen(path, { readOnly: true });
    const all = await c.fetchAll('1:*', { source: true }).catch(() => []);
    return all.map((m) => m.source as Buffer);
  } finally {
    await c.logout();
  }
}

beforeAll(async () => {
  server = await startDovecot();
  sink = await startSmtpSink({ user: 'test@example.com', pass: 'secret' });
  await server.append('INBOX', [
    withFile({
      id: '<report@example.org>',
      subject: 'Report',
      name: 'report.pdf',
      type: 'application/pdf',
      bytes: report,
    }),
    [
      'From: Newsletter <news@example.org>',
      'Reply-To: Desk <desk@example.org>',
      'To: test@example.com',
      'Subject: Weekly',
      'Date: Sun, 29 Nov 2026 09:00:00 +0000',
      'Message-ID: <weekly@example.org>',
      '',
      'Answer the desk.',
      '',
    ].join('\r\n'),
  ]);
  writeFileSync(
    join(files, 'invoice.eml'),
    withFile({
      id: '<invoice@example.org>',
      subject: 'Invoice',
      name: 'invoice.pdf',
      type: 'application/pdf',
      bytes: invoice,
    }),
  );
  writeFileSync(
    join(files, 'later.eml'),
    withFile({
      id: '<later@example.org>',
      subject: 'Later',
      name: 'later.bin',
      type: 'application/octet-stream',
      bytes: later2,
    }),
  );
  const first = withFile({
    id: '<first@example.org>',
    subject: 'First',
    name: 'a.txt',
    type: 'text/plain',
    bytes: randomBytes(10),
  });
  const second = withFile({
    id: '<photo@example.org>',
    subject: 'Photo',
    name: 'photo.jpg',
    type: 'image/jpeg',
    bytes: photo,
    extra: ['Reply-To: Lee at home <lee@home.example>'],
  });
  writeFileSync(
    join(files, 'saved.mbox'),
    `From a@b Sun Nov 29 10:00:00 2026\r\n${first}\r\nFrom a@b Sun Nov 29 11:00:00 2026\r\n${second}\r\n`,
  );

  app = createApp({ dataDir: tempDir(), mode: 'browser' });
  accountId = await addMailAccount(app, server, sink);
  await sync();
  await app.importFiles([files], () => {}).done;
  await call(app, 'identity:add', { address: 'me@alias.example', name: 'Me Myself' });
}, 60_000);

afterAll(async () => {
  await app?.close();
  await sink?.close();
  await server?.stop();
});

describe('a forward', () => {
  test.each([
    ['an imported .eml', '<invoice@example.org>', 'invoice.pdf', invoice],
    ['a message inside an imported mbox', '<photo@example.org>', 'photo.jpg', photo],
    ['a message synced from the IMAP server', '<report@example.org>', 'report.pdf', report],
  ])(
    'of %s carries the attachment, read at send, its bytes intact',
    async (_, messageId, name, bytes) => {
      const draft = await call(app, 'draft:new', {
        kind: 'forward',
        message: idOf(messageId),
        to: ['kim@example.org'],
        body: '',
      });
      expect(draft.forwardOf).toBe(idOf(messageId));
      expect(draft.attachments).toEqual([
        {
          id: expect.any(Number),
          name,
          contentType: expect.any(String),
          size: expect.any(Number),
          origin: 'forwarded',
        },
      ]);
      // Only a reference is kept: no bytes in SQLite before the send.
      expect(
        app.db.prepare('SELECT count(*) FROM draft_attachments WHERE content IS NOT NULL').pluck().get(),
      ).toBe(0);
      const got = await nextReceived(async () => {
        await call(app, 'draft:send', { id: draft.id });
        expect(await sendDue()).toBe(1);
      });
      expect(got.to).toEqual(['kim@example.org']);
      expect(got.parsed.subject).toMatch(/^Fwd: /);
      expect(got.parsed.attachments.map((a) => [a.filename, sha(a.content)])).toEqual([[name, sha(bytes)]]);
      // Sent: the rows go (the sent message kept for Sent holds the file).
      expect(app.db.prepare('SELECT count(*) FROM draft_attachments').pluck().get()).toBe(0);
    },
    30_000,
  );

  test('whose imported file is gone fails with a sentence naming it, stays to retry, and goes once it is back', async () => {
    const path = join(files, 'later.eml');
    await forwardAndSend(idOf('<later@example.org>'));
    renameSync(path, `${path}.away`);
    expect(await sendDue()).toBe(0);
    const [failed] = (await call(app, 'outbox:list', {})).filter((i) => i.state === 'failed');
    expect(failed?.error).toBe(
      `The forwarded attachment "later.bin" cannot be read: the file ${path} this message was imported from: No such file or folder.`,
    );
    expect(sink.received.some((m) => m.raw.includes('Fwd: Later'))).toBe(false);
    renameSync(`${path}.away`, path);
    expect(await call(app, 'outbox:retry', { id: failed?.id ?? 0 })).toEqual({ queued: true });
    const got = await nextReceived(async () => expect(await sendDue()).toBe(1));
    expect(got.parsed.attachments.map((a) => sha(a.content))).toEqual([sha(later2)]);
  }, 30_000);

  test('of a message whose mbox was rewritten since sends nothing: another message at its place fails with a sentence naming the file', async () => {
    const dir = tempDir();
    const path = join(dir, 'rewritten.mbox');
    const mbox = (m: string) => `From a@b Sun Nov 29 10:00:00 2026\r\n${m}\r\n`;
    const original = randomBytes(2_000);
    writeFileSync(
      path,
      mbox(
        withFile({
          id: '<rewritten@example.org>',
          subject: 'Rewritten',
          name: 'invoice.pdf',
          type: 'application/pdf',
          bytes: original,
        }),
      ),
    );
    await app.importFiles([path], () => {}).done;
    const draft = await forwardAndSend(idOf('<rewritten@example.org>'));
    expect(draft.attachments.map((a) => a.name)).toEqual(['invoice.pdf']);
    // Another mail program rewrote the mbox: at the same offset another message, whose file has the same name.
    writeFileSync(
      path,
      mbox(
        withFile({
          id: '<other@example.org>',
          subject: 'Other',
          name: 'invoice.pdf',
          type: 'application/pdf',
          bytes: randomBytes(350),
        }),
      ),
    );
    const before = sink.received.length;
    expect(await sendDue()).toBe(0);
    const failed = (await call(app, 'outbox:list', {})).find((i) => i.subject === 'Fwd: Rewritten');
    expect(failed).toMatchObject({
      state: 'failed',
      error: `The forwarded attachment "invoice.pdf" cannot be read: the file ${path} this message was imported from has changed since.`,
    });
    expect(sink.received.length).toBe(before);
    // The same message, byte for byte as long, with other bytes in its file: the hash tells them apart.
    writeFileSync(
      path,
      mbox(
        withFile({
          id: '<rewritten@example.org>',
          subject: 'Rewritten',
          name: 'invoice.pdf',
          type: 'application/pdf',
          bytes: randomBytes(original.length),
        }),
      ),
    );
    expect(await call(app, 'outbox:retry', { id: failed?.id ?? 0 })).toEqual({ queued: true });
    expect(await sendDue()).toBe(0);
    expect((await call(app, 'outbox:list', {})).find((i) => i.id === failed?.id)).toMatchObject({
      state: 'failed',
      error: failed?.error,
    });
    expect(sink.received.length).toBe(before);
    // Once the file holds the message again, it goes, with the original's bytes.
    writeFileSync(
      path,
      mbox(
        withFile({
          id: '<rewritten@example.org>',
          subject: 'Rewritten',
          name: 'invoice.pdf',
          type: 'application/pdf',
          bytes: original,
        }),
      ),
    );
    expect(await call(app, 'outbox:retry', { id: failed?.id ?? 0 })).toEqual({ queued: true });
    const got = await nextReceived(async () => expect(await sendDue()).toBe(1));
    expect(got.parsed.attachments.map((a) => sha(a.content))).toEqual([sha(original)]);
  }, 30_000);

  test('of the last message of an mbox that grew since is sent as before', async () => {
    const dir = tempDir();
    const path = join(dir, 'growing.mbox');
    const file = randomBytes(3_000);
    const first = `From a@b Sun Nov 29 10:00:00 2026\n${withFile({
      id: '<growing@example.org>',
      subject: 'Growing',
      name: 'plan.pdf',
      type: 'application/pdf',
      bytes: file,
    }).replace(/\r\n/g, '\n')}`;
    writeFileSync(path, first);
    await app.importFiles([path], () => {}).done;
    await forwardAndSend(idOf('<growing@example.org>'));
    // New mail appended after it, with the blank line an mbox puts between messages.
    writeFileSync(path, `${first}\nFrom a@b Mon Nov 30 10:00:00 2026\nSubject: New\n\nHi.\n`);
    const got = await nextReceived(async () => expect(await sendDue()).toBe(1));
    expect(got.parsed.attachments.map((a) => sha(a.content))).toEqual([sha(file)]);
  }, 30_000);

  test('of a message deleted on the server since the sync fails with a sentence naming the attachment', async () => {
    await server.append('INBOX', [
      withFile({
        id: '<gone@example.org>',
        subject: 'Gone',
        name: 'gone.zip',
        type: 'application/zip',
        bytes: randomBytes(100),
      }),
    ]);
    await sync();
    await forwardAndSend(idOf('<gone@example.org>'));
    const c = await server.client();
    try {
      await c.mailboxOpen('INBOX');
      const uids = (await c.search({ header: { 'message-id': '<gone@example.org>' } }, { uid: true })) || [];
      await c.messageDelete(uids.join(','), { uid: true });
    } finally {
      await c.logout();
    }
    expect(await sendDue()).toBe(0);
    const failed = (await call(app, 'outbox:list', {})).find((i) => i.subject === 'Fwd: Gone');
    expect(failed).toMatchObject({
      state: 'failed',
      error:
        'The forwarded attachment "gone.zip" cannot be read: the original message is no longer on the mail server.',
    });
    // Nothing lost: it goes back to the drafts with its text and the reference.
    const { draft } = await call(app, 'outbox:dismiss', { id: failed?.id ?? 0 });
    expect(draft).toMatchObject({
      subject: 'Fwd: Gone',
      attachments: [{ name: 'gone.zip', origin: 'forwarded' }],
    });
    await call(app, 'draft:discard', { id: draft.id });
  }, 30_000);
});

describe('Bcc and From', () => {
  test('Bcc is in the envelope, never in what is received, and the Sent copy in Dovecot keeps it', async () => {
    const draft = await call(app, 'draft:new', {
      kind: 'blank',
      to: ['ann@example.org'],
      cc: [],
      bcc: ['secret@example.org'],
      subject: 'Quarterly',
      body: 'Numbers.',
    });
    expect(draft.bcc).toEqual(['secret@example.org']);
    const got = await nextReceived(async () => {
      await call(app, 'draft:send', { id: draft.id });
      expect(await sendDue()).toBe(1);
    });
    expect(got.to.sort()).toEqual(['ann@example.org', 'secret@example.org']);
    expect(got.raw.toString()).not.toContain('secret@example.org');
    await sync();
    const sent = (await mailboxSources('Sent'))
      .map((b) => b.toString())
      .filter((t) => t.includes('Quarterly'));
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatch(/^Bcc: secret@example\.org\r?$/m);
  }, 30_000);

  test('another of your addresses goes out through the default account, From that address', async () => {
    const draft = await call(app, 'draft:new', {
      kind: 'blank',
      fromAddress: 'Me@Alias.example',
      to: ['ann@example.org'],
      cc: [],
      subject: 'From the alias',
      body: 'Hi.',
    });
    expect(draft).toMatchObject({ fromAddress: 'me@alias.example', from: 'me@alias.example' });
    const got = await nextReceived(async () => {
      await call(app, 'draft:send', { id: draft.id });
      expect(await sendDue()).toBe(1);
    });
    expect(got.from).toBe('test@example.com');
    expect(got.parsed.from?.value).toEqual([{ name: 'Me Myself', address: 'me@alias.example' }]);
  }, 30_000);

  test('a From that is not one of your addresses is refused with a sentence', async () => {
    const sentence =
      'The From address is not one of your addresses: add it under Your addresses (skimmer identity add) to send from it.';
    expect(
      await callRaw(app, 'draft:new', {
        kind: 'blank',
        fromAddress: 'eve@example.org',
        to: [],
        cc: [],
        subject: '',
        body: '',
      }),
    ).toEqual({ ok: false, error: { code: 'invalid_request', message: sentence } });
    const draft = await call(app, 'draft:new', { kind: 'blank', to: [], cc: [], subject: 'x', body: '' });
    expect(
      await callRaw(app, 'draft:save', {
        id: draft.id,
        fromAddress: 'eve@example.org',
        to: [],
        cc: [],
        bcc: [],
        subject: 'x',
        body: '',
      }),
    ).toMatchObject({ ok: false, error: { code: 'invalid_request', message: sentence } });
    expect((await call(app, 'draft:show', { id: draft.id })).fromAddress).toBeNull();
    await call(app, 'draft:discard', { id: draft.id });
  });
});

describe('replies', () => {
  test.each([
    ['synced from the server', '<weekly@example.org>', 'desk@example.org'],
    ['imported from an mbox', '<photo@example.org>', 'lee@home.example'],
  ])('to a message %s with a Reply-To go to the Reply-To', async (_, messageId, replyTo) => {
    const draft = await call(app, 'draft:new', { kind: 'reply', message: idOf(messageId), to: [], body: '' });
    expect(draft.to).toEqual([replyTo]);
    await call(app, 'draft:discard', { id: draft.id });
  });
});

describe('drafts on the server', () => {
  test("a saved draft is kept in the account's Drafts folder, a save replacing its copy, a discard removing it", async () => {
    const subjects = async () =>
      (await mailboxSources('Drafts'))
        .map((b) => /^Subject: (.*)$/m.exec(b.toString())?.[1]?.trim())
        .filter((s) => s?.startsWith('Plan'));
    const draft = await call(app, 'draft:new', {
      kind: 'blank',
      to: ['ann@example.org'],
      cc: [],
      bcc: ['boss@example.org'],
      subject: 'Plan A',
      body: 'First.',
    });
    // Two saves before a sync: one copy, as it was last saved.
    const change = { id: draft.id, fromAddress: null, to: draft.to, cc: [], bcc: draft.bcc, body: 'Second.' };
    await call(app, 'draft:save', { ...change, subject: 'Plan B' });
    await call(app, 'draft:save', { ...change, subject: 'Plan C' });
    await sync();
    expect(await subjects()).toEqual(['Plan C']);
    await call(app, 'draft:save', { ...change, subject: 'Plan D' });
    await sync();
    expect(await subjects()).toEqual(['Plan D']);
    await call(app, 'draft:discard', { id: draft.id });
    await sync();
    expect(await subjects()).toEqual([]);
  }, 30_000);
});
