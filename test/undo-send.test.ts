// Undo of a send gives the message back as a draft (issue 5; Gmail reopens an undone send as a draft), with
// a real SMTP server on loopback and a real SQLite file: the user's own Send and an approved send_mail alike.
// `outbox:cancel` cancels the message and puts it in the drafts in one transaction, answers with that draft,
// and the watch hears it queued, cancelled, then gone; nothing reaches the SMTP server. A message already on
// its way or sent cannot be undone, and no draft is made of it.
import type { SendMailOptions } from 'nodemailer';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { type App, createApp } from '../electron/app.ts';
import { prepareOutbox, undoWindowMs } from '../electron/mail/send/outbox.ts';
import { smtpTransport } from '../electron/mail/send/smtp-connect.ts';
import { prepareMailActions } from '../electron/mail/store/undo.ts';
import { channels, envelope } from '../shared/contract/index.ts';
import { call, callRaw, importDemo } from './support/bridge.ts';
import { type OutboxWatch, watchOutbox } from './support/outbox-watch.ts';
import { type SmtpSink, startSmtpSink } from './support/smtp-sink.ts';
import { tempDir } from './support/temp.ts';
import { toolText } from './support/tool-text.ts';

let sink: SmtpSink;
let app: App;
// A demo message the drafts answer, and its Message-ID.
let answered = 0;
let answeredId = '';
// What the watch said of each outbox message, in order, in the current test.
let watch: OutboxWatch;
const states = (id: number) => watch.states(id);
const later = () => Date.now() + undoWindowMs + 1000;

beforeAll(async () => {
  sink = await startSmtpSink({ user: 'test@example.com', pass: 'secret' });
  // Not the background app: the test sends what is due itself, so nothing goes out behind its back.
  app = createApp({ dataDir: tempDir(), mode: 'browser' });
  await importDemo(app);
  const row = app.db
    .prepare<[], { id: number; message_id: string }>(
      "SELECT id, message_id FROM messages WHERE message_id <> '' ORDER BY id LIMIT 1",
    )
    .get();
  if (!row) throw new Error('the demo mailbox has no message with a Message-ID');
  answered = row.id;
  answeredId = row.message_id;
  watch = await watchOutbox(app);
  await call(app, 'account:add', {
    name: 'work',
    user: 'test@example.com',
    password: 'secret',
    imap: { host: '127.0.0.1', port: 1, tls: 'none' },
    smtp: { host: sink.host, port: sink.port, tls: 'none' },
  });
}, 60_000);

beforeEach(() => watch.clear());

afterAll(async () => {
  await app?.close();
  await sink?.close();
});

const written = {
  to: ['carol@example.org', 'erin@example.org'],
  cc: ['dan@example.org'],
  subject: 'Re: the plan',
  body: 'Three points, in order:\n1. yes\n2. no\n3. later',
};
/** The user's own Send of a draft answering the demo message: the outbox id. */
async function sendDraft(): Promise<number> {
  const draft = prepareMailActions(app.db).createDraft({ ...written, inReplyTo: answered });
  return (await call(app, 'draft:send', { id: draft.id })).id;
}
const drafts = async () => call(app, 'draft:list', {});
const cancel = async (id: number) =>
  envelope(channels['outbox:cancel'].response).parse(await callRaw(app, 'outbox:cancel', { id }));

describe('Undo of a send', () => {
  test("puts the user's draft back as it was written, and nothing is sent", async () => {
    const id = await sendDraft();
    expect(await drafts()).toEqual([]);
    const reply = await cancel(id);
    if (!reply.ok) throw new Error(reply.error.message);
    expect(reply.value).toEqual({ cancelled: true, draft: expect.any(Number) });
    expect(await drafts()).toEqual([
      {
        id: reply.value.draft,
        ...written,
        fromAddress: null,
        bcc: [],
        inReplyTo: answered,
        forwardOf: null,
        attachments: [],
        updatedAt: expect.any(Number),
      },
    ]);
    // It left the outbox: the sender finds nothing due, however late.
    expect(prepareOutbox(app.db).get(id)).toBeNull();
    expect(await prepareOutbox(app.db, later).sendDue(app.accounts)).toBe(0);
    expect(sink.received).toEqual([]);
    await expect.poll(() => states(id)).toEqual(['queued', 'cancelled', 'gone']);
  });

  test('the draft it gives back still answers the same message when sent again', async () => {
    const [draft] = await drafts();
    if (!draft) throw new Error('no draft');
    await call(app, 'draft:send', { id: draft.id });
    expect(await prepareOutbox(app.db, later).sendDue(app.accounts)).toBe(1);
    const [got] = await sink.waitFor(1);
    const raw = got?.raw.toString() ?? '';
    expect(raw).toContain(`In-Reply-To: ${answeredId}`);
    expect(raw).toMatch(/^Subject: Re: the plan$/m);
    expect(got?.to.sort()).toEqual(['carol@example.org', 'dan@example.org', 'erin@example.org']);
    expect(await drafts()).toEqual([]);
  });

  test("makes an approved send_mail the user's draft, to edit or discard", async () => {
    const tool = app.tools.find((t) => t.name === 'send_mail');
    if (!tool) throw new Error('no send_mail');
    const args = { to: ['frank@example.org'], subject: 'Invoice', body: 'Paid in full.' };
    const out = await tool.run(tool.schema.parse(args), { signal: new AbortController().signal });
    const id = JSON.parse(toolText(out)).queued as number;
    const { cancelled, draft } = await call(app, 'outbox:cancel', { id });
    expect(cancelled).toBe(true);
    if (draft === null) throw new Error('no draft');
    expect((await drafts()).find((d) => d.id === draft)).toMatchObject({ ...args, cc: [], inReplyTo: null });
    const edited = await call(app, 'draft:save', {
      id: draft,
      ...args,
      fromAddress: null,
      cc: [],
      bcc: [],
      body: 'Paid, thanks.',
    });
    expect(edited.body).toBe('Paid, thanks.');
    expect(await call(app, 'draft:discard', { id: draft })).toEqual({ discarded: true });
    expect(await prepareOutbox(app.db, later).sendDue(app.accounts)).toBe(0);
    expect(sink.received).toHaveLength(1);
    await expect.poll(() => states(id)).toEqual(['queued', 'cancelled', 'gone']);
  });

  test('a second Undo finds nothing to cancel and makes no second draft', async () => {
    const id = await sendDraft();
    expect((await call(app, 'outbox:cancel', { id })).cancelled).toBe(true);
    expect(await call(app, 'outbox:cancel', { id })).toEqual({ cancelled: false, draft: null });
    // Nor can the message be dismissed to the drafts a second time.
    expect(await callRaw(app, 'outbox:dismiss', { id })).toMatchObject({
      ok: false,
      error: { code: 'not_found' },
    });
    expect(await drafts()).toHaveLength(1);
    await call(app, 'draft:discard', { id: (await drafts())[0]?.id ?? 0 });
  });

  test('when the draft cannot be made, the message is not cancelled either', async () => {
    const id = await sendDraft();
    // A refusal inside the transaction, after the cancel and before the draft's row.
    app.db.exec(
      "CREATE TEMP TRIGGER no_drafts BEFORE INSERT ON drafts BEGIN SELECT RAISE(ABORT, 'no drafts'); END",
    );
    try {
      const reply = await cancel(id);
      expect(reply.ok).toBe(false);
    } finally {
      app.db.exec('DROP TRIGGER temp.no_drafts');
    }
    expect(prepareOutbox(app.db).get(id)?.state).toBe('queued');
    expect(await drafts()).toEqual([]);
    expect((await call(app, 'outbox:cancel', { id })).cancelled).toBe(true);
    await call(app, 'draft:discard', { id: (await drafts())[0]?.id ?? 0 });
  });
});

describe('a send already on its way', () => {
  test('cannot be undone once sending started, and no draft is made', async () => {
    const id = await sendDraft();
    // The SMTP handover waits for the test, so the message is held in `sending`.
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const transportFor: typeof smtpTransport = (login) => {
      const transport = smtpTransport(login);
      const send = transport.sendMail.bind(transport);
      transport.sendMail = (async (mail: SendMailOptions) => {
        await held;
        return send(mail);
      }) as typeof transport.sendMail;
      return transport;
    };
    const sending = prepareOutbox(app.db, later).sendDue(app.accounts, transportFor);
    await expect.poll(() => states(id)).toEqual(['queued', 'sending']);
    const before = sink.received.length;

    const refused = await cancel(id);
    expect(refused).toEqual({ ok: true, value: { cancelled: false, draft: null } });
    expect(await drafts()).toEqual([]);

    release();
    expect(await sending).toBe(1);
    await sink.waitFor(before + 1);
    expect(await call(app, 'outbox:cancel', { id })).toEqual({ cancelled: false, draft: null });
    expect(await drafts()).toEqual([]);
    await expect.poll(() => states(id)).toEqual(['queued', 'sending', 'sent']);
  });
});
